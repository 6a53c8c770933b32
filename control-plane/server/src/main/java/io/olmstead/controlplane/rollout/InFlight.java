package io.olmstead.controlplane.rollout;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * At most {@code limit} of something at once on this replica (previews): an entry refused changes
 * nothing.
 */
final class InFlight {
  private final int limit;
  private final AtomicInteger count = new AtomicInteger();

  InFlight(int limit) {
    this.limit = limit;
  }

  /** Whether one more may start now; each true is followed by one {@link #leave()}. */
  boolean tryEnter() {
    return count.getAndUpdate(n -> n < limit ? n + 1 : n) < limit;
  }

  void leave() {
    count.decrementAndGet();
  }

  int limit() {
    return limit;
  }
}
