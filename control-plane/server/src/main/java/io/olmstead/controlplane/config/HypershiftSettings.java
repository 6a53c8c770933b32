package io.olmstead.controlplane.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Settings of the HyperShift watcher: the management cluster to watch ({@code
 * OLMSTEAD_MANAGEMENT_KUBECONFIG}, a kubeconfig file or {@value #IN_CLUSTER} for the pod's service
 * account; unset, the watcher is off), how often every HostedCluster is decided again even without
 * an event ({@code resync}) and how often the watcher looks for the HostedCluster CRD until it is
 * there ({@code crdPoll}, {@link #CRD_POLL} from the environment). Tests shorten both with {@link
 * #withIntervals}.
 */
public record HypershiftSettings(
    Optional<String> managementKubeconfig, Duration resync, Duration crdPoll, PoolSettings agents) {
  public static final String MANAGEMENT_KUBECONFIG = "OLMSTEAD_MANAGEMENT_KUBECONFIG";
  public static final String RESYNC_SECONDS = "OLMSTEAD_HYPERSHIFT_RESYNC_SECONDS";
  public static final String IN_CLUSTER = "in-cluster";

  /** How often the watcher looks for the HostedCluster CRD while it is not there. */
  public static final Duration CRD_POLL = Duration.ofSeconds(5);

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
        Duration.ofSeconds(env.positiveInt(RESYNC_SECONDS, 60)),
        CRD_POLL,
        PoolSettings.fromEnvironment(environment));
  }

  /** The same settings with another resync period and CRD poll interval. */
  public HypershiftSettings withIntervals(Duration newResync, Duration newCrdPoll) {
    return new HypershiftSettings(managementKubeconfig, newResync, newCrdPoll, agents);
  }

  public boolean enabled() {
    return managementKubeconfig.isPresent();
  }
}
