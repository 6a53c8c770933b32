package io.olmstead.controlplane.agentgateway;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * Runs at most {@code max} asynchronous tasks at a time; at most {@code maxWaiting} others wait in
 * arrival order without holding anything (no database connection), and a task beyond them is
 * refused at once ({@link Full}). Safe to call from any thread.
 */
final class AsyncLimit {
  /** The task was not queued: {@code maxWaiting} tasks wait already. */
  static final class Full extends RuntimeException {
    Full(int waiting) {
      super(waiting + " tasks are waiting already", null, false, false);
    }
  }

  private final int max;
  private final int maxWaiting;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private int running;

  AsyncLimit(int max, int maxWaiting) {
    if (max < 1 || maxWaiting < 0) {
      throw new IllegalArgumentException("max must be at least 1 and maxWaiting at least 0");
    }
    this.max = max;
    this.maxWaiting = maxWaiting;
  }

  /**
   * Starts {@code task} now if fewer than {@code max} run, else once one of them completes; fails
   * with {@link Full} without running it when {@code maxWaiting} tasks wait already.
   */
  <T> Future<T> run(Supplier<Future<T>> task) {
    Promise<T> promise = Promise.promise();
    Runnable start =
        () -> {
          Future<T> started;
          try {
            started = task.get();
          } catch (RuntimeException e) {
            started = Future.failedFuture(e);
          }
          started.onComplete(
              ar -> {
                release();
                promise.handle(ar);
              });
        };
    synchronized (this) {
      if (running >= max) {
        if (waiting.size() >= maxWaiting) {
          return Future.failedFuture(new Full(waiting.size()));
        }
        waiting.add(start);
        return promise.future();
      }
      running++;
    }
    start.run();
    return promise.future();
  }

  /** How many tasks wait for a slot. */
  synchronized int waiting() {
    return waiting.size();
  }

  private void release() {
    Runnable next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) {
        running--;
        return;
      }
    }
    next.run(); // the slot passes to the next task
  }
}
