package io.olmstead.controlplane.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Settings of the HyperShift watcher: the management cluster to watch ({@code
 * OLMSTEAD_MANAGEMENT_KUBECONFIG}, a kubeconfig file or {@value #IN_CLUSTER} for the pod's service
 * account; unset, the watcher is off) and how often every HostedCluster is decided again even
 * without an event.
 */
public record HypershiftSettings(
    Optional<String> managementKubeconfig, int resyncSeconds, PoolSettings agents) {
  public static final String MANAGEMENT_KUBECONFIG = "OLMSTEAD_MANAGEMENT_KUBECONFIG";
  public static final String RESYNC_SECONDS = "OLMSTEAD_HYPERSHIFT_RESYNC_SECONDS";
  public static final String IN_CLUSTER = "in-cluster";

  /** Every variable read here; {@code ControlPlaneConfig.ENVIRONMENT} includes them. */
  public static final Set<String> ENVIRONMENT =
      Stream.concat(
              Set.of(MANAGEMENT_KUBECONFIG, RESYNC_SECONDS).stream(),
              PoolSettings.ENVIRONMENT.stream())
          .collect(Collectors.toUnmodifiableSet());

  public HypershiftSettings {
    managementKubeconfig
        .filter(path -> !IN_CLUSTER.equals(path))
        .ifPresent(
            path -> {
              if (!Files.isReadable(Path.of(path))) {
                throw new ConfigException(
                    MANAGEMENT_KUBECONFIG,
                    "'"
                        + path
                        + "' is not a readable kubeconfig file (or set it"
                        + " to "
                        + IN_CLUSTER
                        + " to use the pod's service account)");
              }
            });
  }

  public static HypershiftSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    return new HypershiftSettings(
        env.string(MANAGEMENT_KUBECONFIG),
        env.positiveInt(RESYNC_SECONDS, 60),
        PoolSettings.fromEnvironment(environment));
  }

  public boolean enabled() {
    return managementKubeconfig.isPresent();
  }
}
