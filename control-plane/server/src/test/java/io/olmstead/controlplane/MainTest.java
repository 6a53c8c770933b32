package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MainTest {
  record Outcome(int exitCode, String out, String err) {}

  static Outcome run(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, env, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Outcome(code, out.toString(), err.toString());
  }

  @Test
  void helpListsEveryCommand() {
    Outcome outcome = run(Map.of(), "--help");
    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out()).contains("serve", "migrate");
  }

  /**
   * Dev mode is its own module (olmstead-dev.jar): the server's command line has no {@code dev}.
   */
  @Test
  void theServerHasNoDevCommand() {
    Outcome outcome = run(Map.of(), "dev");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.err()).contains("'dev'").contains("Usage:");
    assertThat(run(Map.of()).err()).contains("a command is required (serve, migrate)");
  }

  @Test
  void unknownCommandPrintsUsageOnStderrAndExitsTwo() {
    Outcome outcome = run(Map.of(), "explode");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.err()).contains("explode").contains("Usage:");
    assertThat(outcome.out()).isEmpty();
  }

  @Test
  void noCommandIsAUsageError() {
    Outcome outcome = run(Map.of());
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.err()).contains("Usage:");
  }

  @Test
  void unknownFlagExitsTwo() {
    Outcome outcome = run(Map.of(), "serve", "--prot", "9000");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.err()).contains("--prot");
  }

  @Test
  void nonNumericPortFlagNamesTheFlag() {
    Outcome outcome = run(Map.of(), "serve", "--port", "abc");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.err()).contains("--port").contains("abc");
  }

  @Test
  void nonNumericPortInEnvironmentNamesTheVariableWithoutAStackTrace() {
    Outcome outcome =
        run(
            Map.of("OLMSTEAD_PORT", "abc", "OLMSTEAD_DB_URL", "postgresql://127.0.0.1:1/x"),
            "serve");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("OLMSTEAD_PORT").contains("abc").doesNotContain("\tat ");
    assertThat(outcome.err().lines().count()).isEqualTo(1);
  }

  @Test
  void serveWithoutADatabaseSaysWhichSettingIsMissing() {
    Outcome outcome = run(Map.of(), "serve");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).startsWith("olmstead: OLMSTEAD_DB_URL: is not set");
    assertThat(outcome.err().lines().count()).isEqualTo(1);
  }

  @Test
  void malformedDatabaseUrlIsNamedAndItsPasswordHidden() {
    Outcome outcome = run(Map.of("OLMSTEAD_DB_URL", "mysql://u:secret@db/x"), "serve");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err())
        .contains("OLMSTEAD_DB_URL")
        .contains("not a PostgreSQL URL")
        .doesNotContain("secret");
  }

  @Test
  void unreachableDatabaseIsOneLineAndExitsOne() {
    Outcome outcome = run(Map.of("OLMSTEAD_DB_URL", "postgresql://127.0.0.1:1/olmstead"), "serve");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err())
        .contains("database unreachable at 127.0.0.1:1/olmstead")
        .doesNotContain("\tat ");
    assertThat(outcome.err().lines().count()).isEqualTo(1);
  }

  @Test
  void migrateAgainstAnUnreachableDatabaseFailsWithOneLine() {
    Outcome outcome = run(Map.of(), "migrate", "--db-url", "postgresql://127.0.0.1:1/olmstead");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("database unreachable").doesNotContain("\tat ");
  }

  @Test
  void tooShortAdminTokenIsRejected() {
    Outcome outcome =
        run(
            Map.of(
                "OLMSTEAD_DB_URL", "postgresql://127.0.0.1:1/x", "OLMSTEAD_ADMIN_TOKEN", "abc123"),
            "serve");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("OLMSTEAD_ADMIN_TOKEN").doesNotContain("abc123");
  }
}
