package io.olmstead.controlplane.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliConfigTest {
  @TempDir Path home;

  private CliContext context(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(Map.of("XDG_CONFIG_HOME", home.toString()));
    env.putAll(extra);
    return new CliContext(
        env,
        System.in,
        new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()),
        Duration.ofMillis(10));
  }

  @Test
  void savesTheTokenInItsOwnOwnerOnlyFileAndTheContextWithoutIt() throws Exception {
    CliContext ctx = context(Map.of());
    Path tokenFile =
        CliConfig.save(ctx, "prod", URI.create("https://cp.example.com"), "olm_secret");
    Path file = home.resolve("olmstead/config");
    assertThat(ctx.configFile()).isEqualTo(file);
    assertThat(tokenFile).isEqualTo(home.resolve("olmstead/tokens/prod"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(file))
        .contains("current-context", "prod", "token-file")
        .doesNotContain("olm_secret");
    CliConfig loaded = CliConfig.load(ctx);
    assertThat(loaded).isEqualTo(new CliConfig(URI.create("https://cp.example.com"), "olm_secret"));
    assertThat(loaded.toString()).doesNotContain("olm_secret");
  }

  @Test
  void refusesATokenFileOthersCanReadNamingTheFileAndTheFix() throws Exception {
    CliContext ctx = context(Map.of());
    Path tokenFile =
        CliConfig.save(ctx, "prod", URI.create("https://cp.example.com"), "olm_secret");
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> CliConfig.load(ctx))
        .isInstanceOf(CliException.class)
        .hasMessageContaining(tokenFile + " is accessible by other users")
        .hasMessageContaining("chmod 600 " + tokenFile)
        .hasMessageNotContaining("olm_secret");
  }

  @Test
  void severalContextsTheCurrentOneUnlessTheFlagOrOlmsteadContextNamesAnother() {
    CliContext ctx = context(Map.of());
    CliConfig.save(ctx, "staging", URI.create("https://staging.example.com"), "olm_staging");
    CliConfig.save(ctx, "prod", URI.create("https://prod.example.com"), "olm_prod");
    assertThat(CliConfig.load(ctx).url()).isEqualTo(URI.create("https://prod.example.com"));
    assertThat(CliConfig.load(context(Map.of("OLMSTEAD_CONTEXT", "staging"))).token())
        .isEqualTo("olm_staging");
    CliContext flagged = context(Map.of("OLMSTEAD_CONTEXT", "staging"));
    flagged.contextFlag().set("prod");
    assertThat(CliConfig.load(flagged).token()).isEqualTo("olm_prod");
    assertThatThrownBy(() -> CliConfig.load(context(Map.of("OLMSTEAD_CONTEXT", "qa"))))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("no context 'qa'")
        .hasMessageContaining("olmstead config get-contexts");
  }

  @Test
  void olmsteadConfigNamesTheFileAndTheLoginFileOfEarlierVersionsStillReads() throws Exception {
    Path elsewhere = home.resolve("ci/olmstead.yaml");
    assertThat(context(Map.of("OLMSTEAD_CONFIG", elsewhere.toString())).configFile())
        .isEqualTo(elsewhere);
    Path legacy = home.resolve("olmstead/config.yaml");
    Files.createDirectories(legacy.getParent());
    Files.writeString(legacy, "url: https://old.example.com\ntoken: olm_old\n");
    Files.setPosixFilePermissions(legacy, PosixFilePermissions.fromString("rw-------"));
    assertThat(CliConfig.load(context(Map.of())))
        .isEqualTo(new CliConfig(URI.create("https://old.example.com"), "olm_old"));
  }

  @Test
  void environmentOverridesTheSavedLoginAndNoLoginSaysHowToLogIn() throws Exception {
    assertThatThrownBy(() -> CliConfig.load(context(Map.of())))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("not logged in")
        .hasMessageContaining("olmstead login --url URL --token-stdin");
    CliContext ctx = context(Map.of("OLMSTEAD_TOKEN", "olm_env"));
    CliConfig.save(ctx, "saved", URI.create("https://saved.example.com/"), "olm_saved");
    assertThat(CliConfig.load(ctx))
        .isEqualTo(new CliConfig(URI.create("https://saved.example.com"), "olm_env"));
    CliContext both =
        context(Map.of("OLMSTEAD_TOKEN", "olm_env", "OLMSTEAD_URL", "http://127.0.0.1:1"));
    assertThat(CliConfig.load(both).url()).isEqualTo(URI.create("http://127.0.0.1:1"));
  }

  @Test
  void aUrlThatIsNotHttpIsAUsageErrorNamingIt() {
    assertThatThrownBy(() -> CliConfig.parseUrl("cp.example.com:8080"))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("'cp.example.com:8080'");
  }
}
