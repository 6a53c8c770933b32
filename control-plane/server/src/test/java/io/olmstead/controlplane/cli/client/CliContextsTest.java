package io.olmstead.controlplane.cli.client;

import static io.olmstead.controlplane.cli.client.CliRun.ok;
import static io.olmstead.controlplane.cli.client.CliRun.oneLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code olmstead config ...} and {@code --context}: contexts listed, switched, set and deleted; no
 * token printed.
 */
class CliContextsTest {
  @TempDir Path home;

  private Map<String, String> env() {
    return Map.of("XDG_CONFIG_HOME", home.toString());
  }

  private CliRun cli(String... args) {
    return CliRun.run(env(), "", args);
  }

  @Test
  void contextsAreListedWithoutTokensAndUseContextSwitchesTheCurrentOne() throws Exception {
    CliContext ctx = new CliContext(env(), System.in, null, null, null);
    CliConfig.save(ctx, "staging", URI.create("https://staging.example.com"), "olm_staging_secret");
    CliConfig.save(ctx, "prod", URI.create("https://prod.example.com"), "olm_prod_secret");
    CliRun list = ok(cli("config", "get-contexts"));
    assertThat(list.out())
        .startsWith("CURRENT")
        .containsPattern("\\n +staging +https://staging\\.example\\.com")
        .containsPattern("\\n\\* +prod +https://prod\\.example\\.com")
        .doesNotContain("secret");
    assertThat(ok(cli("config", "current-context")).out()).isEqualTo("prod\n");
    assertThat(ok(cli("config", "use-context", "staging")).out())
        .isEqualTo("Switched to context \"staging\".\n");
    assertThat(ok(cli("config", "current-context")).out()).isEqualTo("staging\n");
    assertThat(ok(cli("config", "get-contexts", "-o", "json")).out())
        .contains("\"current\" : true")
        .doesNotContain("secret");
    assertThat(ok(cli("config", "get-contexts", "-o", "name")).out()).isEqualTo("staging\nprod\n");
    oneLine(
        cli("config", "use-context", "qa"), ExitCodes.NOT_FOUND, "no context 'qa'", "get-contexts");
    // --context before or after the command picks another context for one command
    oneLine(cli("--context", "qa", "get", "clusters"), ExitCodes.USAGE, "no context 'qa'");
    oneLine(cli("get", "clusters", "--context", "qa"), ExitCodes.USAGE, "no context 'qa'");
  }

  @Test
  void setContextTakesATokenFileAndDeleteContextRemovesTheOneLoginWrote() throws Exception {
    Path token = Files.writeString(home.resolve("ci-token"), "olm_ci\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    ok(
        cli(
            "config",
            "set-context",
            "ci",
            "--url",
            "https://ci.example.com",
            "--token-file",
            token.toString()));
    CliContext ctx =
        new CliContext(
            Map.of("XDG_CONFIG_HOME", home.toString(), "OLMSTEAD_CONTEXT", "ci"),
            System.in,
            null,
            null,
            null);
    assertThat(CliConfig.load(ctx))
        .isEqualTo(new CliConfig(URI.create("https://ci.example.com"), "olm_ci"));
    Path written = CliConfig.save(ctx, "prod", URI.create("https://prod.example.com"), "olm_prod");
    ok(cli("config", "delete-context", "prod"));
    assertThat(written).doesNotExist();
    assertThat(token).exists();
    assertThat(ok(cli("config", "get-contexts")).out()).contains("ci").doesNotContain("prod");
    oneLine(
        cli(
            "config",
            "set-context",
            "bad name",
            "--url",
            "https://x.example.com",
            "--token-file",
            token.toString()),
        ExitCodes.USAGE,
        "context name 'bad name'");
  }
}
