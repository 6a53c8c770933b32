package io.olmstead.agent.reconcile;

import io.olmstead.agent.config.AgentConfig;
import java.time.Duration;

/**
 * Tuning of the reconcile loop.
 *
 * @param workers worker threads (one pass per namespace at a time regardless)
 * @param resync period of the full re-reconcile that catches drift on kinds without informers
 * @param informers false to rely on resync only (hollow-ish setups and some tests)
 */
public record ReconcilerOptions(int workers, Duration resync, boolean informers) {

  public static ReconcilerOptions defaults() {
    return new ReconcilerOptions(2, Duration.ofMinutes(5), true);
  }

  public static ReconcilerOptions from(AgentConfig config) {
    return new ReconcilerOptions(config.workers(), config.resync(), true);
  }

  public ReconcilerOptions withResync(Duration value) {
    return new ReconcilerOptions(workers, value, informers);
  }
}
