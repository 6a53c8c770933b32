package io.olmstead.agent.reconcile;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When to retry a namespace whose catalog could not be had (fetch failed, not enrolled yet):
 * doubling delays from {@code min} up to {@code max} per namespace, so a control plane that is
 * briefly away is retried within seconds and one that stays away is not hammered, while nothing
 * waits for the next full resync.
 */
final class CatalogRetry {
  private final long minMillis;
  private final long maxMillis;
  private final Map<String, Integer> attempts = new ConcurrentHashMap<>();

  CatalogRetry(Duration min, Duration max) {
    this.minMillis = Math.max(1, min.toMillis());
    this.maxMillis = Math.max(minMillis, max.toMillis());
  }

  /**
   * The delay before the next pass over {@code namespace}, which is still waiting for a catalog.
   */
  Duration next(String namespace) {
    int attempt = attempts.merge(namespace, 1, Integer::sum) - 1;
    return Duration.ofMillis(Math.min(maxMillis, minMillis << Math.min(attempt, 30)));
  }

  /**
   * {@code namespace} has its catalogs (or no longer needs any): the next failure starts again at
   * {@code min}.
   */
  void reset(String namespace) {
    attempts.remove(namespace);
  }

  /** Namespaces waiting for a catalog. */
  Set<String> waiting() {
    return Set.copyOf(attempts.keySet());
  }
}
