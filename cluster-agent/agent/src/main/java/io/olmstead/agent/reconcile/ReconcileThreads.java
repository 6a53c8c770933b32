package io.olmstead.agent.reconcile;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reconcile threads shared by many {@link AgentReconciler}s (one hosted agent pool replica serving
 * many clusters): a fixed number of workers and one timer thread, however many clusters there are.
 * Each reconciler runs its work on a {@link SerialLane} over the workers, so one cluster's passes
 * never overlap and a slow guest holds one worker, not all; the timer only queues work (resyncs,
 * re-queues after a delay) and never calls a guest itself.
 */
public final class ReconcileThreads implements AutoCloseable {
  private final ThreadPoolExecutor workers;
  private final ScheduledThreadPoolExecutor timers;
  private final int size;

  private ReconcileThreads(String name, int size) {
    this.size = size;
    AtomicInteger n = new AtomicInteger();
    // a lane has at most a few turns queued at once, so the queue is bounded by the number of
    // clusters served
    this.workers =
        new ThreadPoolExecutor(
            size,
            size,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name + "-reconcile-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.timers =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, name + "-reconcile-timer");
              t.setDaemon(true);
              return t;
            });
    timers.setRemoveOnCancelPolicy(
        true); // a stopped cluster's resync timer goes at once, not at its next run
  }

  /** {@code size} workers (1 or more) and one timer, their threads named after {@code name}. */
  public static ReconcileThreads create(String name, int size) {
    if (size < 1) {
      throw new IllegalArgumentException("reconcile threads must be 1 or more, not " + size);
    }
    return new ReconcileThreads(name, size);
  }

  /** The number of worker threads. */
  public int size() {
    return size;
  }

  /** A new lane: tasks run one at a time, in order, one per turn on the shared workers. */
  SerialLane lane() {
    return new SerialLane(workers);
  }

  Executor workers() {
    return workers;
  }

  ScheduledExecutorService timers() {
    return timers;
  }

  @Override
  public void close() {
    timers.shutdownNow();
    workers.shutdownNow();
  }
}
