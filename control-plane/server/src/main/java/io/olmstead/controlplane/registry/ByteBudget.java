package io.olmstead.controlplane.registry;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * Counts bytes against a limit; passing it throws the caller's exception (shared by the bounded
 * streams).
 */
final class ByteBudget {
  private final long max;
  private final Supplier<? extends IOException> exceeded;
  private long spent;

  ByteBudget(long max, Supplier<? extends IOException> exceeded) {
    this.max = max;
    this.exceeded = exceeded;
  }

  void spend(long n) throws IOException {
    spent += n;
    if (spent > max) {
      throw exceeded.get();
    }
  }
}
