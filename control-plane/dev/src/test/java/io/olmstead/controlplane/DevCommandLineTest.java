package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's command line with the dev module on the class path (olmstead-dev.jar): {@code dev}
 * is there.
 */
class DevCommandLineTest {

  @Test
  void helpListsDevServeAndMigrate() {
    MainTest.Outcome outcome = MainTest.run(Map.of(), "--help");
    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out()).contains("dev", "serve", "migrate");
    assertThat(MainTest.run(Map.of()).err())
        .contains("a command is required (dev, serve, migrate)");
  }

  @Test
  void devHelpListsItsFlags() {
    MainTest.Outcome outcome = MainTest.run(Map.of(), "dev", "--help");
    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out()).contains("--port", "--data-dir", "--fresh", "--admin-token");
  }

  @Test
  void anUnknownDevFlagExitsTwoNamingIt() {
    MainTest.Outcome outcome = MainTest.run(Map.of(), "dev", "--prot", "9000");
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.err()).contains("--prot");
  }
}
