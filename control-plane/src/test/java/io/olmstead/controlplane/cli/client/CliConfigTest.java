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
  @TempDir
  Path home;

  private CliContext context(Map<String, String> extra) {
    Map<String, String> env = new HashMap<>(Map.of("XDG_CONFIG_HOME", home.toString()));
    env.putAll(extra);
    return new CliContext(env, System.in, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
        Duration.ofMillis(10));
  }

  @Test
  void savesUrlAndTokenReadableByTheOwnerOnly() throws Exception {
    CliContext ctx = context(Map.of());
    CliConfig.save(ctx.configFile(), URI.create("https://cp.example.com"), "olm_secret");
    Path file = home.resolve("olmstead/config.yaml");
    assertThat(ctx.configFile()).isEqualTo(file);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
        .isEqualTo("rwx------");
    CliConfig loaded = CliConfig.load(ctx);
    assertThat(loaded.url()).isEqualTo(URI.create("https://cp.example.com"));
    assertThat(loaded.token()).isEqualTo("olm_secret");
    assertThat(loaded.toString()).doesNotContain("olm_secret");
  }

  @Test
  void refusesAConfigOthersCanReadNamingTheFileAndTheFix() throws Exception {
    CliContext ctx = context(Map.of());
    CliConfig.save(ctx.configFile(), URI.create("https://cp.example.com"), "olm_secret");
    Files.setPosixFilePermissions(ctx.configFile(), PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> CliConfig.load(ctx)).isInstanceOf(CliException.class)
        .hasMessageContaining(ctx.configFile() + " is accessible by other users")
        .hasMessageContaining("chmod 600 " + ctx.configFile())
        .hasMessageNotContaining("olm_secret");
  }

  @Test
  void environmentOverridesTheSavedLoginAndNoLoginSaysHowToLogIn() throws Exception {
    assertThatThrownBy(() -> CliConfig.load(context(Map.of()))).isInstanceOf(CliException.class)
        .hasMessageContaining("not logged in").hasMessageContaining("run olmstead login")
        .satisfies(e -> assertThat(((CliException) e).exitCode()).isEqualTo(ExitCodes.AUTH));
    CliContext ctx = context(Map.of("OLMSTEAD_TOKEN", "olm_env"));
    CliConfig.save(ctx.configFile(), URI.create("https://saved.example.com/"), "olm_saved");
    assertThat(CliConfig.load(ctx)).isEqualTo(new CliConfig(URI.create("https://saved.example.com"), "olm_env"));
    CliContext both = context(Map.of("OLMSTEAD_URL", "http://127.0.0.1:1", "OLMSTEAD_TOKEN", "olm_env"));
    assertThat(CliConfig.load(both).url()).isEqualTo(URI.create("http://127.0.0.1:1"));
  }

  @Test
  void aUrlThatIsNotHttpIsAUsageErrorNamingIt() {
    assertThatThrownBy(() -> CliConfig.parseUrl("cp.example.com:8080")).isInstanceOf(CliException.class)
        .hasMessageContaining("'cp.example.com:8080' is not an http(s) URL");
  }
}
