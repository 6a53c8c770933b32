package io.olmstead.controlplane.impact;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.ClusterVersion;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OpenShiftEffectTest {
  @ParameterizedTest(name = "cluster {0}, installed max {1}, target max {2}: {3}")
  @CsvSource(
      nullValues = "-",
      value = {
        "4.15.3, -, -, None",
        "4.15.3, -, 4.15, BlocksUpgrade",
        "4.15.3, 4.15, 4.16, Unblocks",
        "4.15.3, 4.15, 4.15, StillBlocks",
        "4.15.3, 4.16, 4.17, None",
        "-, 4.15, 4.14, NotOpenShift"
      })
  void theTargetsMaximumAgainstTheClustersNextMinor(
      String cluster, String installed, String target, String effect) {
    ClusterVersion version = cluster == null ? null : new ClusterVersion(cluster, "agent");
    assertThat(OpenShiftEffect.of(version, installed, target).getString("effect"))
        .isEqualTo(effect);
  }
}
