package io.olmstead.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesClientsTest {
  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      clusters:
      - name: guest
        cluster: {server: "https://guest.example:6443", insecure-skip-tls-verify: true}
      users:
      - name: agent
        user: {token: abc}
      contexts:
      - name: guest
        context: {cluster: guest, user: agent}
      current-context: guest
      """;

  @Test
  void hostedModeTalksToTheApiServerInTheKubeconfig(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("kubeconfig"), KUBECONFIG);
    AgentConfig config =
        AgentConfig.fromMap(
            Map.of(
                "OLMSTEAD_CLUSTER_NAME",
                "guest",
                "OLMSTEAD_AGENT_MODE",
                "hosted",
                "OLMSTEAD_KUBECONFIG",
                file.toString()));
    Config client = KubernetesClients.clientConfig(config);
    assertThat(client.getMasterUrl()).startsWith("https://guest.example:6443");
    assertThat(client.getAutoOAuthToken()).isEqualTo("abc");
  }

  @Test
  void aBrokenKubeconfigIsAConfigurationError(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("kubeconfig"), "{not yaml: [");
    AgentConfig config =
        AgentConfig.fromMap(
            Map.of(
                "OLMSTEAD_CLUSTER_NAME",
                "guest",
                "OLMSTEAD_AGENT_MODE",
                "hosted",
                "OLMSTEAD_KUBECONFIG",
                file.toString()));
    assertThatThrownBy(() -> KubernetesClients.clientConfig(config))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("OLMSTEAD_KUBECONFIG could not be read as a kubeconfig");
  }

  /**
   * The agent prints a configuration error at start: a YAML parser's message would quote the line
   * with the token.
   */
  @Test
  void aBrokenKubeconfigsErrorDoesNotQuoteItsToken(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("kubeconfig"),
            "apiVersion: v1\nusers:\n- name: agent\n  user:\n    token: sha256~AGENTSECRET: [\n");
    AgentConfig config =
        AgentConfig.fromMap(
            Map.of(
                "OLMSTEAD_CLUSTER_NAME",
                "guest",
                "OLMSTEAD_AGENT_MODE",
                "hosted",
                "OLMSTEAD_KUBECONFIG",
                file.toString()));
    assertThatThrownBy(() -> KubernetesClients.clientConfig(config))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("OLMSTEAD_KUBECONFIG could not be read as a kubeconfig")
        .hasMessageContaining("line")
        .hasMessageNotContaining("AGENTSECRET");
  }
}
