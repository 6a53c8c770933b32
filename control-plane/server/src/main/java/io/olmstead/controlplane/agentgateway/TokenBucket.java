package io.olmstead.controlplane.agentgateway;

/**
 * A per-connection message rate limit: {@code burst} messages at once, refilled at {@code
 * perSecond}.
 */
final class TokenBucket {
  private final double perNano;
  private final double capacity;
  private double tokens;
  private long last;

  TokenBucket(int perSecond, int burst, long nowNanos) {
    this.perNano = perSecond / 1e9;
    this.capacity = burst;
    this.tokens = burst;
    this.last = nowNanos;
  }

  boolean tryTake(long nowNanos) {
    tokens = Math.min(capacity, tokens + (nowNanos - last) * perNano);
    last = nowNanos;
    if (tokens < 1) {
      return false;
    }
    tokens -= 1;
    return true;
  }
}
