package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red-team inputs for {@code apply -f}: each is refused within seconds with one line naming the
 * file, or read.
 */
@Timeout(30)
class ApplyDocumentsHostileTest {
  @TempDir Path dir;

  private static CliException refused(String text) {
    try {
      ApplyDocuments.parse("evil.yaml", text);
    } catch (CliException e) {
      return e;
    }
    throw new AssertionError("accepted");
  }

  @Test
  void aBillionLaughsDocumentIsRefusedNotExpanded() {
    StringBuilder y =
        new StringBuilder(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      String p = String.valueOf((char) (c - 1));
      y.append(c)
          .append(": &")
          .append(c)
          .append(" [*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append(",*")
          .append(p)
          .append("]\n");
    }
    String text = "kind: Catalog\nname: x\nspec:\n" + y.toString().indent(2);
    CliException e = refused(text);
    assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(e.getMessage())
        .isEqualTo("evil.yaml:5: YAML aliases (*a) are not supported: write the value out");
  }

  @Test
  void anAliasIsRefusedRatherThanReadAsItsAnchorsName() {
    // before: displayName became the text "n", silently
    assertThat(refused("kind: Catalog\nname: &n demo\nspec: {displayName: *n}\n").getMessage())
        .isEqualTo("evil.yaml:3: YAML aliases (*n) are not supported: write the value out");
  }

  @Test
  void nestingThousandsDeepIsRefusedWithOneLine() {
    String text = "kind: Catalog\nname: x\nspec: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
    CliException e = refused(text);
    assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(e.getMessage()).startsWith("evil.yaml:").doesNotContain("\n");
  }

  @Test
  void aFileJustUnderTheSizeLimitIsReadOrRefusedWithOneLine() throws Exception {
    Path f = dir.resolve("big.yaml");
    String filler = "# " + "x".repeat(1000) + "\n";
    Files.writeString(f, "kind: Catalog\nname: x\nspec: {displayName: X}\n" + filler.repeat(3900));
    assertThat(Files.size(f)).isLessThan(ApplyDocuments.MAX_FILE_BYTES);
    try {
      assertThat(ApplyDocuments.read(java.util.List.of(f))).hasSize(1);
    } catch (CliException e) {
      assertThat(e.getMessage()).doesNotContain("\n").startsWith(f.toString());
      assertThat(e.exitCode()).isEqualTo(ExitCodes.USAGE);
    }
  }

  @Test
  void aHundredMegabyteFileIsRefusedBeforeItIsRead() throws Exception {
    Path f = dir.resolve("huge.yaml");
    try (var ch =
        java.nio.channels.FileChannel.open(
            f,
            java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {'\n'}), 100L * 1024 * 1024);
    }
    assertThatThrownBy(() -> ApplyDocuments.read(ApplyDocuments.files(dir)))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("larger than 4 MiB");
  }

  @Test
  void symlinkLoopsAndSpecialFilesInADirectoryDoNotHangTheWalk() throws Exception {
    Files.createDirectories(dir.resolve("a"));
    Files.createSymbolicLink(dir.resolve("a/loop"), dir);
    Files.createSymbolicLink(dir.resolve("zero.yaml"), Path.of("/dev/zero"));
    Files.writeString(dir.resolve("ok.yaml"), "kind: Catalog\nname: x\nspec: {}\n");
    assertThat(ApplyDocuments.read(ApplyDocuments.files(dir))).hasSize(1);
  }

  @Test
  void aSymlinkToAnUnboundedProcFileIsNotReadBeyondTheLimit() throws Exception {
    Path f = dir.resolve("proc.yaml");
    Files.createSymbolicLink(f, Path.of("/proc/self/maps"));
    // read as a file of unknown size, through the limit (the class's timeout catches a read that
    // never ends)
    try {
      assertThat(ApplyDocuments.read(List.of(f))).hasSizeLessThanOrEqualTo(1);
    } catch (CliException e) {
      assertThat(e.getMessage()).doesNotContain("\n");
    }
  }
}
