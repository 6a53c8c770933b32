package io.olmstead.agent.config;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the fabric8 client for the configured mode: in-cluster config, or the hosted mode's
 * kubeconfig.
 */
public final class KubernetesClients {
  private KubernetesClients() {}

  /** A client for the guest cluster the agent manages. */
  public static KubernetesClient forConfig(AgentConfig config) throws ConfigException {
    return new KubernetesClientBuilder().withConfig(clientConfig(config)).build();
  }

  static Config clientConfig(AgentConfig config) throws ConfigException {
    return kubeconfigOrInCluster(
        config.mode() == AgentMode.HOSTED ? config.kubeconfig() : Optional.empty(),
        AgentConfig.KUBECONFIG,
        AgentConfig.MODE + "=hosted with " + AgentConfig.KUBECONFIG);
  }

  /**
   * The client configuration read from {@code kubeconfig} when given, else the pod's own (service
   * account token and {@code KUBERNETES_SERVICE_HOST}). {@code setting} names the variable the file
   * came from and {@code outsideHint} what to set when not in a pod; both go into the error, never
   * the file's content.
   */
  public static Config kubeconfigOrInCluster(
      Optional<Path> kubeconfig, String setting, String outsideHint) throws ConfigException {
    if (kubeconfig.isPresent()) {
      try {
        return parse(Files.readString(kubeconfig.get()));
      } catch (IOException | RuntimeException e) {
        throw new ConfigException(
            setting + " could not be read as a kubeconfig: " + e.getMessage());
      }
    }
    Config auto = Config.autoConfigure(null);
    if (auto.getMasterUrl() == null || auto.getMasterUrl().isBlank()) {
      throw new ConfigException(
          "no in-cluster Kubernetes configuration found; run in a pod or set " + outsideHint);
    }
    return auto;
  }

  /**
   * Parses a kubeconfig's text. A YAML error quotes the offending line, which can be a token, and
   * callers log the failure: the message says only where the error is, and carries no cause.
   */
  public static Config parse(String kubeconfig) {
    try {
      return Config.fromKubeconfig(kubeconfig);
    } catch (RuntimeException e) {
      Matcher at = LINE.matcher(String.valueOf(e.getMessage()));
      throw new IllegalArgumentException(
          "the kubeconfig does not parse ("
              + e.getClass().getSimpleName()
              + (at.find() ? " at line " + at.group(1) : "")
              + ")");
    }
  }

  private static final Pattern LINE = Pattern.compile("line (\\d{1,9})");
}
