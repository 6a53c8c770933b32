package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dev} reads its configuration once, from the environment Main is given, checked before
 * anything starts.
 */
class DevConfigurationTest {

  // a guard, not a timing goal: reading the process environment instead would start a database and
  // serve forever
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aBadSettingInTheGivenEnvironmentIsRefusedNamingItBeforeTheDatabaseStarts(
      @TempDir Path data) {
    MainTest.Outcome outcome =
        MainTest.run(
            Map.of("OLMSTEAD_AGENT_CATALOG_CACHE_MB", "lots"),
            "dev",
            "--port",
            "0",
            "--data-dir",
            data.toString());

    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err())
        .contains("OLMSTEAD_AGENT_CATALOG_CACHE_MB")
        .contains("lots")
        .doesNotContain("\tat ");
    assertThat(Files.exists(data.resolve("pg"))).as("no database started").isFalse();
  }
}
