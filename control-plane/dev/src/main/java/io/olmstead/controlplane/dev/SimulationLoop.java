package io.olmstead.controlplane.dev;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * SIMULATION: one daemon thread running a round every period (a round must catch its own failures).
 */
final class SimulationLoop implements AutoCloseable {
  private final ScheduledExecutorService thread;

  SimulationLoop(String name) {
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
  }

  void every(Duration period, Runnable round) {
    thread.scheduleWithFixedDelay(round, 0, period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops the rounds and waits (a few seconds at most) for the one under way. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
