package io.olmstead.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTest {
  @Test
  void defaultsToInGuestWithSensibleTuning() throws Exception {
    AgentConfig config = AgentConfig.fromMap(Map.of("OLMSTEAD_CLUSTER_NAME", "prod-1"));
    assertThat(config.mode()).isEqualTo(AgentMode.IN_GUEST);
    assertThat(config.workers()).isEqualTo(2);
    assertThat(config.resync()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.controlPlaneUrl()).isEmpty();
  }

  @Test
  void hostedModeNeedsAReadableKubeconfig(@TempDir Path dir) throws Exception {
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of("OLMSTEAD_CLUSTER_NAME", "c", "OLMSTEAD_AGENT_MODE", "hosted")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("OLMSTEAD_KUBECONFIG is required");
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of(
                        "OLMSTEAD_CLUSTER_NAME",
                        "c",
                        "OLMSTEAD_AGENT_MODE",
                        "hosted",
                        "OLMSTEAD_KUBECONFIG",
                        dir.resolve("absent").toString())))
        .hasMessageContaining("not a readable file");
    Path kubeconfig =
        Files.writeString(dir.resolve("kubeconfig"), "apiVersion: v1\nkind: Config\n");
    AgentConfig config =
        AgentConfig.fromMap(
            Map.of(
                "OLMSTEAD_CLUSTER_NAME",
                "c",
                "OLMSTEAD_AGENT_MODE",
                "hosted",
                "OLMSTEAD_KUBECONFIG",
                kubeconfig.toString()));
    assertThat(config.mode()).isEqualTo(AgentMode.HOSTED);
    assertThat(config.kubeconfig()).contains(kubeconfig);
  }

  @Test
  void rejectsBadValuesNamingTheVariable() {
    assertThatThrownBy(() -> AgentConfig.fromMap(Map.of()))
        .hasMessageContaining("OLMSTEAD_CLUSTER_NAME is required");
    assertThatThrownBy(() -> AgentConfig.fromMap(Map.of("OLMSTEAD_CLUSTER_NAME", "Not_A_Label")))
        .hasMessageContaining("DNS label");
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of("OLMSTEAD_CLUSTER_NAME", "c", "OLMSTEAD_AGENT_MODE", "sideways")))
        .hasMessageContaining("'in-guest' or 'hosted'");
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of("OLMSTEAD_CLUSTER_NAME", "c", "OLMSTEAD_AGENT_WORKERS", "many")))
        .hasMessageContaining("OLMSTEAD_AGENT_WORKERS must be a whole number");
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of("OLMSTEAD_CLUSTER_NAME", "c", "OLMSTEAD_AGENT_RESYNC_SECONDS", "0")))
        .hasMessageContaining("between 1 and");
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of("OLMSTEAD_CLUSTER_NAME", "c", "OLMSTEAD_CONTROL_PLANE_URL", "ftp://x")))
        .hasMessageContaining("http(s) URL");
  }

  @Test
  void neverPrintsTheEnrollmentToken() throws Exception {
    AgentConfig config =
        AgentConfig.fromMap(
            Map.of("OLMSTEAD_CLUSTER_NAME", "c", "OLMSTEAD_ENROLLMENT_TOKEN", "s3cr3t"));
    assertThat(config.enrollmentToken()).contains("s3cr3t");
    assertThat(config.toString()).doesNotContain("s3cr3t");
  }

  @Test
  void credentialSecretIsANamespacedName() throws Exception {
    assertThat(AgentConfig.fromMap(Map.of("OLMSTEAD_CLUSTER_NAME", "c")).credentialSecret())
        .isEmpty();
    AgentConfig config =
        AgentConfig.fromMap(
            Map.of(
                "OLMSTEAD_CLUSTER_NAME",
                "c",
                "OLMSTEAD_CREDENTIAL_SECRET",
                "olmstead-agent/olmstead-agent-credential"));
    assertThat(config.credentialSecret()).contains("olmstead-agent/olmstead-agent-credential");
    assertThatThrownBy(
            () ->
                AgentConfig.fromMap(
                    Map.of(
                        "OLMSTEAD_CLUSTER_NAME",
                        "c",
                        "OLMSTEAD_CREDENTIAL_SECRET",
                        "no-namespace")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("OLMSTEAD_CREDENTIAL_SECRET must be <namespace>/<name>");
  }
}
