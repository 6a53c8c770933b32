package io.olmstead.controlplane.agentgateway;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * Runs at most {@code max} asynchronous tasks at a time; the others wait in arrival order without
 * holding anything (no database connection). Safe to call from any thread.
 */
final class AsyncLimit {
  private final int max;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private int running;

  AsyncLimit(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1");
    }
    this.max = max;
  }

  /** Starts {@code task} now if fewer than {@code max} run, else once one of them completes. */
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
