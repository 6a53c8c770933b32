package io.olmstead.controlplane.db;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A bound on an answer awaited on an event loop that does not count the loop's own lateness. When
 * the bound's timer fires more than half the bound after it was due, the loop itself was behind (a
 * saturated replica, a long collection, a paused process): the answer may be waiting, unread,
 * behind the loop's queue, so the bound starts again instead of failing, at most {@link #MAX_LATE}
 * times in a row. A timer that fires on time fails the bound, so a database that does not answer is
 * still found out once the loop keeps time. The same rule as the presence tick's ({@code
 * TickPauses}): a pause of this process is not the peer's silence. Used by the leader locks' checks
 * and the database watch's probe, whose false alarms under load made a leader step down or a
 * replica let its agents go.
 */
public final class LoopBound {
  /** Late firings in a row after which the bound fails anyway. */
  static final int MAX_LATE = 5;

  private LoopBound() {}

  /**
   * {@code answer}, failed with {@code timeout} when it has not completed within {@code millis}.
   */
  public static <T> Future<T> within(
      Vertx vertx, Future<T> answer, long millis, Supplier<? extends Throwable> timeout) {
    return within(vertx, answer, millis, timeout, System::nanoTime);
  }

  /** As above, lateness read on {@code clock} (nanoseconds). */
  static <T> Future<T> within(
      Vertx vertx,
      Future<T> answer,
      long millis,
      Supplier<? extends Throwable> timeout,
      LongSupplier clock) {
    Promise<T> bounded = Promise.promise();
    AtomicLong timer = new AtomicLong(-1);
    arm(vertx, bounded, millis, timeout, clock, timer, 0);
    answer.onComplete(
        ar -> {
          vertx.cancelTimer(timer.get());
          if (ar.succeeded()) {
            bounded.tryComplete(ar.result());
          } else {
            bounded.tryFail(ar.cause());
          }
        });
    return bounded.future();
  }

  private static <T> void arm(
      Vertx vertx,
      Promise<T> bounded,
      long millis,
      Supplier<? extends Throwable> timeout,
      LongSupplier clock,
      AtomicLong timer,
      int lateSoFar) {
    long boundNanos = TimeUnit.MILLISECONDS.toNanos(millis);
    long due = clock.getAsLong() + boundNanos;
    timer.set(
        vertx.setTimer(
            millis,
            id -> {
              if (bounded.future().isComplete()) {
                return;
              }
              if (clock.getAsLong() - due > boundNanos / 2 && lateSoFar < MAX_LATE) {
                arm(vertx, bounded, millis, timeout, clock, timer, lateSoFar + 1);
              } else {
                bounded.tryFail(timeout.get());
              }
            }));
  }
}
