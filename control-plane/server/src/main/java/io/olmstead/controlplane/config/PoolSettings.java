package io.olmstead.controlplane.config;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How hosted clusters get their agents ({@code OLMSTEAD_HYPERSHIFT_AGENTS}): {@code pool} (the
 * default: the hosted agent pool serves them) or {@code per-cluster} (the control plane deploys one
 * agent into each hosted control plane namespace, as {@code hosted} describes); and how often each
 * control plane replica recomputes the pool's assignment, checks its pool connections and, as
 * leader, the per-cluster agents ({@code OLMSTEAD_POOL_ASSIGN_SECONDS}).
 */
public record PoolSettings(String agents, int assignSeconds, HostedAgentSettings hosted) {
  public static final String AGENTS = "OLMSTEAD_HYPERSHIFT_AGENTS";
  public static final String ASSIGN_SECONDS = "OLMSTEAD_POOL_ASSIGN_SECONDS";
  public static final String POOL = "pool";
  public static final String PER_CLUSTER = "per-cluster";
  public static final Set<String> ENVIRONMENT =
      Set.of(
          AGENTS,
          ASSIGN_SECONDS,
          HostedAgentSettings.IMAGE,
          HostedAgentSettings.CONTROL_PLANE_URL,
          HostedAgentSettings.CONTROL_PLANE_NAMESPACE);

  public PoolSettings {
    if (PER_CLUSTER.equals(agents)) {
      hosted.requiredImage();
    } else if (!POOL.equals(agents)) {
      throw new ConfigException(AGENTS, "'" + agents + "' is not one of pool, per-cluster");
    }
    if (assignSeconds > 300) {
      throw new ConfigException(ASSIGN_SECONDS, "'" + assignSeconds + "' is more than 300");
    }
  }

  public static PoolSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    return new PoolSettings(
        env.string(AGENTS).map(s -> s.toLowerCase(Locale.ROOT)).orElse(POOL),
        env.positiveInt(ASSIGN_SECONDS, 5),
        HostedAgentSettings.fromEnvironment(environment));
  }

  /** Whether the control plane deploys one agent per hosted cluster (and the pool serves none). */
  public boolean perCluster() {
    return PER_CLUSTER.equals(agents);
  }

  /** A pool replica silent for this long is gone and its clusters go to the others. */
  public int liveSeconds() {
    return assignSeconds * 3;
  }
}
