package io.olmstead.controlplane.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * One fetch at a time, failures remembered for the retry interval, at most one forced refresh per
 * interval.
 */
class CachedFetchTest {
  private static final Duration FRESH = Duration.ofHours(1);
  private static final Duration RETRY = Duration.ofSeconds(15);
  private final TestClock clock = new TestClock();
  private final List<Promise<String>> fetches = new ArrayList<>();
  private final CachedFetch<String> cache = new CachedFetch<>(this::fetch, clock, FRESH, RETRY);

  private Future<String> fetch() {
    Promise<String> promise = Promise.promise();
    fetches.add(promise);
    return promise.future();
  }

  @Test
  void concurrentCallersShareTheOneFetchInFlight() {
    List<Future<String>> callers = IntStream.range(0, 50).mapToObj(i -> cache.get()).toList();
    assertThat(fetches).hasSize(1);
    assertThat(cache.peek()).isEmpty();
    fetches.get(0).complete("keys");
    assertThat(callers).allSatisfy(f -> assertThat(f.result()).isEqualTo("keys"));
    assertThat(cache.get().result()).isEqualTo("keys");
    assertThat(fetches).hasSize(1);
  }

  @Test
  void aFailureIsAnsweredAtOnceWithoutAskingAgainUntilTheRetryIntervalHasPassed() {
    cache.get();
    fetches.get(0).fail(new IOException("Connection refused"));
    List<Future<String>> callers = IntStream.range(0, 50).mapToObj(i -> cache.get()).toList();
    assertThat(callers).allSatisfy(f -> assertThat(f.cause()).hasMessage("Connection refused"));
    assertThat(cache.peek()).isEmpty();
    clock.advance(RETRY.minusSeconds(1));
    cache.get();
    assertThat(fetches).hasSize(1);
    assertThat(cache.retryIn()).isEqualTo(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    cache.get();
    cache.peek();
    assertThat(fetches).hasSize(2);
  }

  @Test
  void aForcedRefreshHappensAtMostOncePerRetryIntervalAndTheLastGoodValueOutlivesItsFailure() {
    cache.get();
    fetches.get(0).complete("old keys");
    clock.advance(RETRY);
    Future<String> refreshed = cache.refresh();
    assertThat(cache.refresh()).as("shares the refresh in flight").isSameAs(refreshed);
    fetches.get(1).fail(new IOException("Read timed out"));
    assertThat(cache.refresh().cause()).isInstanceOf(CachedFetch.RetryLater.class);
    assertThat(fetches).hasSize(2);
    assertThat(cache.peek()).contains("old keys");
    assertThat(cache.get().result()).isEqualTo("old keys");
    clock.advance(RETRY);
    cache.refresh();
    assertThat(fetches).hasSize(3);
  }

  @Test
  void aStaleValueIsStillReadWhileItIsFetchedAgainInTheBackground() {
    cache.get();
    fetches.get(0).complete("keys");
    clock.advance(FRESH);
    assertThat(cache.peek()).contains("keys");
    assertThat(fetches).hasSize(2);
    fetches.get(1).complete("new keys");
    assertThat(cache.peek()).contains("new keys");
  }

  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
