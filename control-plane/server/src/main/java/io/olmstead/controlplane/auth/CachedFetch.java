package io.olmstead.controlplane.auth;

import io.vertx.core.Future;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A value fetched from a remote party (the OIDC issuer) by one caller at a time: concurrent callers
 * share the fetch in flight; a value is kept for {@code fresh}; a failure is remembered and no
 * fetch starts again until {@code retry} has passed since the last one began, so an unreachable
 * party is asked once per interval, not once per request. The last good value outlives a failed
 * refresh. Times come from the clock given, so tests move them.
 */
public final class CachedFetch<T> {
  private final Supplier<Future<T>> fetch;
  private final Clock clock;
  private final Duration fresh;
  private final Duration retry;
  private T value;
  private Instant valueAt;
  private Throwable failure;
  private Instant attemptAt;
  private Future<T> inFlight;

  CachedFetch(Supplier<Future<T>> fetch, Clock clock, Duration fresh, Duration retry) {
    this.fetch = fetch;
    this.clock = clock;
    this.fresh = fresh;
    this.retry = retry;
  }

  /**
   * The last good value of any age, without waiting; starts a refresh in the background when it is
   * due.
   */
  synchronized Optional<T> peek() {
    if (value == null || isStale()) {
      startIfAllowed();
    }
    return Optional.ofNullable(value);
  }

  /**
   * A fresh value; else the fetch in flight, or a new one when allowed; else the last good value,
   * or the last failure at once.
   */
  public synchronized Future<T> get() {
    if (value != null && !isStale()) {
      return Future.succeededFuture(value);
    }
    return startIfAllowed().orElseGet(this::lastKnown);
  }

  /**
   * Fetches again however fresh the value is (an unknown key id), at most once per retry interval.
   */
  synchronized Future<T> refresh() {
    return startIfAllowed().orElseGet(() -> Future.failedFuture(new RetryLater(retryIn())));
  }

  /** Whether a fetch is under way or allowed now; else how long until one is. */
  synchronized Duration retryIn() {
    if (inFlight != null || attemptAt == null) {
      return Duration.ZERO;
    }
    Duration left = Duration.between(clock.instant(), attemptAt.plus(retry));
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** Why the last fetch failed, if it did and no value came since. */
  synchronized Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  private boolean isStale() {
    return !clock.instant().isBefore(valueAt.plus(fresh));
  }

  private Future<T> lastKnown() {
    return value != null
        ? Future.succeededFuture(value)
        : Future.failedFuture(failure != null ? failure : new RetryLater(retryIn()));
  }

  private Optional<Future<T>> startIfAllowed() {
    if (inFlight != null) {
      return Optional.of(inFlight);
    }
    Instant now = clock.instant();
    if (attemptAt != null && now.isBefore(attemptAt.plus(retry))) {
      return Optional.empty();
    }
    attemptAt = now;
    Future<T> started;
    try {
      started = fetch.get();
    } catch (RuntimeException e) {
      started = Future.failedFuture(e);
    }
    inFlight = started;
    started.onComplete(ar -> settle(ar.succeeded() ? ar.result() : null, ar.cause()));
    // a fetch that settled at once has already cleared inFlight
    return Optional.of(started);
  }

  private synchronized void settle(T result, Throwable cause) {
    inFlight = null;
    if (cause == null) {
      value = result;
      valueAt = clock.instant();
      failure = null;
    } else {
      failure = cause;
    }
  }

  /** No fetch may start yet: the last one began less than the retry interval ago. */
  static final class RetryLater extends RuntimeException {
    final Duration after;

    RetryLater(Duration after) {
      super(
          "fetched less than the retry interval ago; next attempt in "
              + Math.max(1, after.toSeconds())
              + " s",
          null,
          false,
          false);
      this.after = after;
    }
  }
}
