package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
  void perClusterAgentsNeedTheAgentImageAndSayWhich() {
    assertThatThrownBy(
            () ->
                ControlPlaneConfig.fromEnvironment(
                    Map.of(PoolSettings.AGENTS, "per-cluster"), "127.0.0.1"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "OLMSTEAD_HOSTED_AGENT_IMAGE: is required when OLMSTEAD_HYPERSHIFT_AGENTS is per-cluster");
    PoolSettings settings =
        PoolSettings.fromEnvironment(
            Map.of(
                PoolSettings.AGENTS,
                "Per-Cluster",
                HostedAgentSettings.IMAGE,
                "registry.example.com/olmstead/agent:1.2.3"));
    assertThat(settings.perCluster()).isTrue();
    assertThat(settings.hosted().controlPlaneUrl())
        .isEqualTo("http://olmstead-control-plane.olmstead-system.svc");
    assertThat(settings.hosted().controlPlaneNamespace()).isEqualTo("olmstead-system");
  }

  @Test
  void refusesABadHostedAgentImageUrlOrNamespaceNamingTheSetting() {
    assertThatThrownBy(
            () -> PoolSettings.fromEnvironment(Map.of(HostedAgentSettings.IMAGE, "bad image")))
        .hasMessageStartingWith(HostedAgentSettings.IMAGE + ":");
    assertThatThrownBy(
            () ->
                PoolSettings.fromEnvironment(
                    Map.of(HostedAgentSettings.CONTROL_PLANE_URL, "ftp://x")))
        .hasMessageStartingWith(HostedAgentSettings.CONTROL_PLANE_URL + ":");
    assertThatThrownBy(
            () ->
                PoolSettings.fromEnvironment(
                    Map.of(HostedAgentSettings.CONTROL_PLANE_NAMESPACE, "A_b")))
        .hasMessageStartingWith(HostedAgentSettings.CONTROL_PLANE_NAMESPACE + ":");
  }

  @Test
  void refusesAnUnknownModeAndABadPeriodNamingTheSetting() {
    assertThatThrownBy(() -> PoolSettings.fromEnvironment(Map.of(PoolSettings.AGENTS, "daemonset")))
        .hasMessageStartingWith(PoolSettings.AGENTS + ":");
    assertThatThrownBy(() -> PoolSettings.fromEnvironment(Map.of(PoolSettings.ASSIGN_SECONDS, "0")))
        .hasMessageStartingWith(PoolSettings.ASSIGN_SECONDS + ":");
    assertThatThrownBy(
            () -> PoolSettings.fromEnvironment(Map.of(PoolSettings.ASSIGN_SECONDS, "301")))
        .hasMessageStartingWith(PoolSettings.ASSIGN_SECONDS + ":");
  }

  @Test
  void theControlPlaneReadsEveryVariable() {
    assertThat(ControlPlaneConfig.ENVIRONMENT)
        .contains(PoolSettings.AGENTS, PoolSettings.ASSIGN_SECONDS)
        .containsAll(HostedAgentSettings.ENVIRONMENT);
  }
}
