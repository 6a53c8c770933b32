package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolSettingsTest {
  @Test
  void defaultsToThePool() {
    PoolSettings settings = PoolSettings.fromEnvironment(Map.of());
    assertThat(settings.agents()).isEqualTo(PoolSettings.POOL);
    assertThat(settings.assignSeconds()).isEqualTo(5);
    assertThat(settings.liveSeconds()).isEqualTo(15);
  }

  @Test
  void refusesPerClusterAgentsWithALineSayingTheyAreNotBuilt() {
    assertThatThrownBy(() -> ControlPlaneConfig.fromEnvironment(Map.of(PoolSettings.AGENTS, "per-cluster"), "127.0.0.1"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("OLMSTEAD_HYPERSHIFT_AGENTS: 'per-cluster' (one agent per hosted cluster) is not built yet; use 'pool'");
  }

  @Test
  void refusesAnUnknownModeAndABadPeriodNamingTheSetting() {
    assertThatThrownBy(() -> PoolSettings.fromEnvironment(Map.of(PoolSettings.AGENTS, "daemonset")))
        .hasMessageStartingWith(PoolSettings.AGENTS + ":");
    assertThatThrownBy(() -> PoolSettings.fromEnvironment(Map.of(PoolSettings.ASSIGN_SECONDS, "0")))
        .hasMessageStartingWith(PoolSettings.ASSIGN_SECONDS + ":");
    assertThatThrownBy(() -> PoolSettings.fromEnvironment(Map.of(PoolSettings.ASSIGN_SECONDS, "301")))
        .hasMessageStartingWith(PoolSettings.ASSIGN_SECONDS + ":");
  }

  @Test
  void theControlPlaneReadsBothVariables() {
    assertThat(ControlPlaneConfig.ENVIRONMENT).contains(PoolSettings.AGENTS, PoolSettings.ASSIGN_SECONDS);
  }
}
