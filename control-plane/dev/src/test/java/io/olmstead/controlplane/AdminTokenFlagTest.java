package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A too short {@code --admin-token} is refused before anything starts, with a line naming the flag.
 */
class AdminTokenFlagTest {

  @Test
  void devRefusesAShortAdminTokenNamingTheFlag(@TempDir Path dataDir) {
    MainTest.Outcome outcome =
        MainTest.run(Map.of(), "dev", "--data-dir", dataDir.toString(), "--admin-token", "short");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err())
        .contains("--admin-token")
        .contains("at least 16 characters")
        .doesNotContain("OLMSTEAD_ADMIN_TOKEN")
        .doesNotContain("\tat ");
  }

  @Test
  void serveRefusesAShortAdminTokenNamingTheFlag() {
    MainTest.Outcome outcome =
        MainTest.run(
            Map.of("OLMSTEAD_DB_URL", "postgresql://127.0.0.1:1/none"),
            "serve",
            "--admin-token",
            "short");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err())
        .contains("--admin-token")
        .contains("at least 16 characters")
        .doesNotContain("OLMSTEAD_ADMIN_TOKEN");
  }
}
