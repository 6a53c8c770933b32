package io.olmstead.agent.channel;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential reconnect delays with full jitter, so a fleet that lost its control plane does not
 * return at once.
 */
public final class Backoff {
  private final long minMillis;
  private final long maxMillis;
  private int attempt;

  public Backoff(Duration min, Duration max) {
    this.minMillis = Math.max(1, min.toMillis());
    this.maxMillis = Math.max(minMillis, max.toMillis());
  }

  /** The next delay: uniformly random in [min, min * 2^attempt], capped at max. */
  public long nextMillis() {
    long ceiling = minMillis << Math.min(attempt, 20);
    attempt++;
    ceiling = Math.min(maxMillis, ceiling);
    return minMillis + ThreadLocalRandom.current().nextLong(Math.max(1, ceiling - minMillis + 1));
  }

  /**
   * A short delay, uniformly random in [min, 2 * min], that does not advance the backoff: for a
   * dial that is expected to succeed now (a new credential arrived); the jitter spreads many agents
   * handed new credentials at once.
   */
  public long shortMillis() {
    return minMillis + ThreadLocalRandom.current().nextLong(minMillis + 1);
  }

  /** The longest delay, for closes that need a change elsewhere before a retry can help. */
  public long maxMillis() {
    return maxMillis;
  }

  public void reset() {
    attempt = 0;
  }

  int attempt() {
    return attempt;
  }
}
