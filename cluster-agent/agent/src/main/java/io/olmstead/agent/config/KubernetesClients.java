package io.olmstead.agent.config;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;

/** Builds the fabric8 client for the configured mode: in-cluster config, or the hosted mode's kubeconfig. */
public final class KubernetesClients {
  private KubernetesClients() {}

  /** A client for the guest cluster the agent manages. */
  public static KubernetesClient forConfig(AgentConfig config) throws ConfigException {
    return new KubernetesClientBuilder().withConfig(clientConfig(config)).build();
  }

  static Config clientConfig(AgentConfig config) throws ConfigException {
    if (config.mode() == AgentMode.HOSTED) {
      try {
        String text = Files.readString(config.kubeconfig().orElseThrow());
        return Config.fromKubeconfig(text);
      } catch (IOException | RuntimeException e) {
        throw new ConfigException(AgentConfig.KUBECONFIG + " could not be read as a kubeconfig: " + e.getMessage());
      }
    }
    // In-guest: autoConfigure picks up the service account token and KUBERNETES_SERVICE_HOST.
    Config auto = Config.autoConfigure(null);
    if (auto.getMasterUrl() == null || auto.getMasterUrl().isBlank()) {
      throw new ConfigException("no in-cluster Kubernetes configuration found; run in a pod or set "
          + AgentConfig.MODE + "=hosted with " + AgentConfig.KUBECONFIG);
    }
    return auto;
  }
}
