package io.olmstead.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code dev --simulate}: bounded, and checked before anything (the database) starts. */
class DevSimulateFlagsTest {

  @Test
  void devHelpListsTheSimulationFlags() {
    MainTest.Outcome outcome = MainTest.run(Map.of(), "dev", "--help");
    assertThat(outcome.exitCode()).isZero();
    assertThat(outcome.out()).contains("--simulate", "--simulate-fail", "SIMULATED");
  }

  @Test
  void tooManySimulatedClustersIsRefusedNamingTheFlag() {
    MainTest.Outcome outcome = MainTest.run(Map.of(), "dev", "--simulate", "201");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err())
        .contains("--simulate")
        .contains("201")
        .contains("200")
        .doesNotContain("\tat ");
  }

  @Test
  void negativeSimulatedClustersIsRefused() {
    MainTest.Outcome outcome = MainTest.run(Map.of(), "dev", "--simulate", "-1");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("--simulate");
  }

  @Test
  void aFailingClusterMustBeASimulatedName() {
    MainTest.Outcome outcome =
        MainTest.run(Map.of(), "dev", "--simulate", "3", "--simulate-fail", "sim-03,prod-1");
    assertThat(outcome.exitCode()).isEqualTo(1);
    assertThat(outcome.err()).contains("--simulate-fail").contains("prod-1");
  }
}
