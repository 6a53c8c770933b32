package io.olmstead.controlplane.hypershift.pool;

import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.EnvReader;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How hosted clusters get their agents ({@code OLMSTEAD_HYPERSHIFT_AGENTS}): {@code pool} (the default, and the only
 * one built) or {@code per-cluster}, refused at start until it is built; and how often each control plane replica
 * recomputes the pool's assignment and checks its pool connections ({@code OLMSTEAD_POOL_ASSIGN_SECONDS}).
 */
public record PoolSettings(String agents, int assignSeconds) {
  public static final String AGENTS = "OLMSTEAD_HYPERSHIFT_AGENTS";
  public static final String ASSIGN_SECONDS = "OLMSTEAD_POOL_ASSIGN_SECONDS";
  public static final String POOL = "pool";
  public static final String PER_CLUSTER = "per-cluster";
  public static final Set<String> ENVIRONMENT = Set.of(AGENTS, ASSIGN_SECONDS);

  public PoolSettings {
    if (PER_CLUSTER.equals(agents)) {
      throw new ConfigException(AGENTS, "'per-cluster' (one agent per hosted cluster) is not built yet; use 'pool'");
    }
    if (!POOL.equals(agents)) {
      throw new ConfigException(AGENTS, "'" + agents + "' is not one of pool, per-cluster");
    }
    if (assignSeconds > 300) {
      throw new ConfigException(ASSIGN_SECONDS, "'" + assignSeconds + "' is more than 300");
    }
  }

  public static PoolSettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    return new PoolSettings(env.string(AGENTS).map(s -> s.toLowerCase(Locale.ROOT)).orElse(POOL),
        env.positiveInt(ASSIGN_SECONDS, 5));
  }

  /** A pool replica silent for this long is gone and its clusters go to the others. */
  public int liveSeconds() {
    return assignSeconds * 3;
  }
}
