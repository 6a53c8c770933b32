package io.olmstead.controlplane.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.hypershift.Hypershift;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watcher's settings are read with the control plane's and refused at start with the setting
 * named.
 */
class HypershiftSettingsTest {
  @Test
  void isOffUnlessAManagementClusterIsNamed() {
    assertThat(ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1").hypershift().enabled())
        .isFalse();
    HypershiftSettings inCluster =
        HypershiftSettings.fromEnvironment(
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                "in-cluster",
                HypershiftSettings.RESYNC_SECONDS,
                "30"));
    assertThat(inCluster.enabled()).isTrue();
    assertThat(inCluster.resync()).isEqualTo(Duration.ofSeconds(30));
    assertThat(inCluster.crdPoll()).isEqualTo(HypershiftSettings.CRD_POLL);
    assertThat(ControlPlaneConfig.ENVIRONMENT)
        .contains(HypershiftSettings.MANAGEMENT_KUBECONFIG, HypershiftSettings.RESYNC_SECONDS);
  }

  @Test
  void refusesAKubeconfigThatCannotBeReadAndABadResyncNamingTheSetting() {
    assertThatThrownBy(
            () ->
                ControlPlaneConfig.fromEnvironment(
                    Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, "/nonexistent/kubeconfig"),
                    "127.0.0.1"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("OLMSTEAD_MANAGEMENT_KUBECONFIG: ");
    assertThatThrownBy(
            () ->
                HypershiftSettings.fromEnvironment(Map.of(HypershiftSettings.RESYNC_SECONDS, "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("OLMSTEAD_HYPERSHIFT_RESYNC_SECONDS: ");
  }

  /**
   * The watcher logs why it did not start: a YAML parser's message would quote the line holding the
   * token.
   */
  @Test
  void aKubeconfigThatDoesNotParseFailsNamingTheSettingAndNotItsToken(@TempDir Path dir)
      throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("kubeconfig"),
            "apiVersion: v1\nusers:\n- name: olmstead\n  user:\n    token: sha256~MGMTSECRET: [\n");
    HypershiftSettings settings =
        HypershiftSettings.fromEnvironment(
            Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, file.toString()));
    assertThatThrownBy(() -> Hypershift.client(settings))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("OLMSTEAD_MANAGEMENT_KUBECONFIG: the kubeconfig does not parse")
        .hasMessageNotContaining("MGMTSECRET")
        .hasNoCause();
  }
}
