package io.olmstead.olmcore.fbc;

import static io.olmstead.olmcore.fbc.FbcParserTest.BUNDLE_JSON;
import static io.olmstead.olmcore.fbc.FbcParserTest.PACKAGE_JSON;
import static io.olmstead.olmcore.fbc.FbcParserTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Directory trees, .indexignore and .tar.gz archives. */
class CatalogTreeTest {

  private static final String CHANNEL_YAML =
      "schema: olm.channel\npackage: foo\nname: alpha\nentries:\n- name: foo.v0.1.0\n";

  private final FbcParser parser = new FbcParser();

  @Test
  void readsADirectoryTreeAndHonoursIndexIgnore(@TempDir Path dir) throws Exception {
    write(dir, "foo/package.json", PACKAGE_JSON);
    write(dir, "foo/channels/alpha.yaml", CHANNEL_YAML);
    write(dir, "foo/bundles.json", BUNDLE_JSON);
    write(dir, "README.md", "# not a catalog");
    write(dir, "foo/notes/todo.txt", "nope");
    write(dir, "foo/keep.txt", "schema: example.com/kept\n");
    write(dir, ".indexignore", "# docs\n*.md\n");
    write(dir, "foo/.indexignore", "notes/\n*.txt\n!keep.txt\n");

    DeclarativeConfig cfg = parser.parseDirectory(dir);

    assertThat(cfg.packages()).hasSize(1);
    assertThat(cfg.channels()).hasSize(1);
    assertThat(cfg.bundles()).hasSize(1);
    assertThat(cfg.others())
        .singleElement()
        .extracting(n -> n.get("schema").asText())
        .isEqualTo("example.com/kept");
    assertThat(CatalogValidator.validate(cfg, ValidationMode.STRICT).errors()).isEmpty();
  }

  @Test
  void aFileThatIsNotIgnoredMustBeACatalogFile(@TempDir Path dir) throws Exception {
    write(dir, "foo/package.json", PACKAGE_JSON);
    write(dir, "README.md", "# title\n\nsome: [unclosed\n");

    assertThatThrownBy(() -> parser.parseDirectory(dir))
        .isInstanceOf(FbcException.class)
        .satisfies(e -> assertThat(((FbcException) e).file()).isEqualTo("README.md"));
  }

  @Test
  void indexIgnoreGlobsFollowGitignoreRules() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put(".indexignore", bytes("/top.json\n**/gen/*.json\nsub/deep/\n[ab].yaml\n"));
    files.put("x/.indexignore", bytes("*\n!*.json\n"));
    IndexIgnore ig = IndexIgnore.of(files);

    assertThat(ig.ignored("top.json")).isTrue();
    assertThat(ig.ignored("p/top.json")).isFalse();
    assertThat(ig.ignored("p/q/gen/a.json")).isTrue();
    assertThat(ig.ignored("gen/a.json")).isTrue();
    assertThat(ig.ignored("sub/deep/a.json")).isTrue();
    assertThat(ig.ignored("sub/deeper/a.json")).isFalse();
    assertThat(ig.ignored("a.yaml")).isTrue();
    assertThat(ig.ignored("c.yaml")).isFalse();
    assertThat(ig.ignored("x/readme")).isTrue();
    assertThat(ig.ignored("x/catalog.json")).isFalse();
    assertThat(ig.ignored("x/.indexignore")).isTrue();
  }

  @Test
  void readsATarGzOfACatalogDirectory() throws Exception {
    String longDir = "catalog/" + "d".repeat(120) + "/";
    byte[] tgz =
        new TarBuilder()
            .entry("catalog/", '5', new byte[0])
            .file("catalog/foo/package.json", PACKAGE_JSON)
            .file(longDir + "alpha.yaml", CHANNEL_YAML)
            .file("catalog/foo/bundle.json", BUNDLE_JSON)
            .entry("catalog/link.json", '2', new byte[0])
            .file("catalog/.indexignore", "*.txt\n")
            .file("catalog/ignored.txt", "not yaml: [")
            .tarGz();

    DeclarativeConfig cfg = parser.parseTarGz(tgz);

    assertThat(cfg.packages()).hasSize(1);
    assertThat(cfg.channels()).hasSize(1);
    assertThat(cfg.bundles()).hasSize(1);
  }

  @Test
  void rejectsTarEntriesThatEscapeTheRoot() throws Exception {
    byte[] traversal = new TarBuilder().file("catalog/../../etc/passwd", PACKAGE_JSON).tarGz();
    byte[] absolute = new TarBuilder().file("/etc/passwd", PACKAGE_JSON).tarGz();

    assertThatThrownBy(() -> parser.parseTarGz(traversal))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("escapes the image root");
    assertThatThrownBy(() -> parser.parseTarGz(absolute))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("absolute");
  }

  @Test
  void stopsInflatingWhenTheArchiveExceedsTheTotalLimit() throws Exception {
    byte[] bomb = new TarBuilder().entry("zeros.bin", '0', new byte[4 * 1024 * 1024]).tarGz();
    FbcParser tight = new FbcParser(new ParseLimits(1024 * 1024, 1024 * 1024, 50, 100));

    assertThat(bomb.length).isLessThan(64 * 1024);
    assertThatThrownBy(() -> tight.parseTarGz(bomb))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("limit");
  }

  @Test
  void rejectsGarbageThatIsNotATarGz() {
    assertThatThrownBy(() -> parser.parseTarGz(bytes("definitely not gzip")))
        .isInstanceOf(FbcException.class)
        .hasMessageContaining("invalid tar.gz");
  }

  private static void write(Path root, String rel, String content) throws Exception {
    Path p = root.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, content);
  }
}
