package io.olmstead.agent.reconcile;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One cluster of a pool replica on the replica's {@link ReconcileThreads}: its passes, resync
 * listings and preflight checks all run on one {@link SerialLane}, so no two of them run at once
 * for this cluster, in the order they came, one task per turn; at most one pass is waiting in the
 * lane at a time (it takes the next queued namespace when its turn comes). The resync timer and
 * delayed re-queues are the shared timer's, which only hands work to the lane.
 */
final class SharedThreadsLoop implements ReconcileLoop {
  private final ReconcileThreads threads;
  private final SerialLane lane;
  private final WorkQueue queue;
  private final AtomicBoolean passWaiting = new AtomicBoolean();
  private volatile Consumer<String> pass;
  private volatile boolean running;
  private ScheduledFuture<?> resync;

  SharedThreadsLoop(ReconcileThreads threads) {
    this.threads = threads;
    this.lane = threads.lane();
    this.queue = new WorkQueue(threads.timers(), this::kick);
  }

  @Override
  public WorkQueue queue() {
    return queue;
  }

  @Override
  public synchronized void start(Consumer<String> passTask, Runnable resyncTask, Duration period) {
    this.pass = passTask;
    running = true;
    long millis = period.toMillis();
    resync =
        threads
            .timers()
            .scheduleAtFixedRate(() -> submit(resyncTask), millis, millis, TimeUnit.MILLISECONDS);
    kick(); // namespaces queued before the start
  }

  /** A namespace is queued: one pass goes into the lane unless one is waiting there already. */
  private void kick() {
    if (running && passWaiting.compareAndSet(false, true)) {
      if (!submit(this::passOne)) {
        passWaiting.set(false);
      }
    }
  }

  private void passOne() {
    passWaiting.set(false);
    Optional<String> key;
    try {
      key = queue.take(Duration.ZERO);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    key.ifPresent(pass);
    if (queue.hasQueued()) {
      kick(); // the next namespace goes to the back of the shared queue: other clusters take their
      // turn first
    }
  }

  private boolean submit(Runnable task) {
    try {
      lane.execute(task);
      return true;
    } catch (RejectedExecutionException e) {
      return false; // closed
    }
  }

  @Override
  public Executor preflights() {
    return lane;
  }

  @Override
  public boolean running() {
    return running;
  }

  @Override
  public synchronized void close() {
    running = false;
    if (resync != null) {
      resync.cancel(false);
    }
    lane.close();
    queue.close();
  }
}
