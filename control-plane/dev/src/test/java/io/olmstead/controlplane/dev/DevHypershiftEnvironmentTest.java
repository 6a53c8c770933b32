package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.config.PoolSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HyperShift settings dev's control plane starts with under {@code --simulate-hypershift}. */
class DevHypershiftEnvironmentTest {
  private static final String URL = "http://127.0.0.1:8080";

  @Test
  void poolModeIsLeftAsGiven() {
    Map<String, String> env = Map.of(PoolSettings.AGENTS, "pool");
    assertThat(DevHypershift.environment(env, URL, 8080)).isEqualTo(env);
    assertThat(DevHypershift.environment(Map.of(), URL, 0)).isEmpty();
  }

  @Test
  void perClusterModeGetsADefaultImageAndDevsOwnUrl() {
    Map<String, String> env =
        DevHypershift.environment(Map.of(PoolSettings.AGENTS, PoolSettings.PER_CLUSTER), URL, 8080);
    assertThat(env)
        .containsEntry(HostedAgentSettings.IMAGE, DevHypershift.DEV_AGENT_IMAGE)
        .containsEntry(HostedAgentSettings.CONTROL_PLANE_URL, URL);
    assertThat(PoolSettings.fromEnvironment(env).hosted().controlPlaneUrl()).isEqualTo(URL);
    assertThat(
            DevHypershift.environment(
                Map.of(
                    PoolSettings.AGENTS,
                    PoolSettings.PER_CLUSTER,
                    HostedAgentSettings.IMAGE,
                    "example.com/agent:1"),
                URL,
                8080))
        .containsEntry(HostedAgentSettings.IMAGE, "example.com/agent:1");
  }

  @Test
  void perClusterModeRefusesPortZeroAndAnotherAgentUrlNamingTheSetting() {
    assertThatThrownBy(
            () ->
                DevHypershift.environment(
                    Map.of(PoolSettings.AGENTS, PoolSettings.PER_CLUSTER), URL, 0))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("--port");
    assertThatThrownBy(
            () ->
                DevHypershift.environment(
                    Map.of(
                        PoolSettings.AGENTS,
                        PoolSettings.PER_CLUSTER,
                        HostedAgentSettings.CONTROL_PLANE_URL,
                        "http://elsewhere:8080"),
                    URL,
                    8080))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(HostedAgentSettings.CONTROL_PLANE_URL);
  }
}
