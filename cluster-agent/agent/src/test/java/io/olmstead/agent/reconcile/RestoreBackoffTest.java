package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-object drift restore limiter, on a hand-driven clock. */
class RestoreBackoffTest {
  private final AtomicLong now = new AtomicLong(1_000_000);

  @Test
  void anObjectChangedEveryTenMillisecondsIsRestoredSixTimesInThirtyTwoSeconds() {
    RestoreBackoff backoff = new RestoreBackoff(now::get, 16);
    List<Long> restoredAt = new ArrayList<>();
    long start = now.get();
    for (int i = 0; i < 3200; i++) { // 32 s of a writer fighting the agent
      if (backoff.permit("Deployment/ns/op")) {
        restoredAt.add((now.get() - start) / 1000);
      }
      now.addAndGet(10);
    }
    assertThat(restoredAt).containsExactly(0L, 1L, 3L, 7L, 15L, 31L);
  }

  @Test
  void eachObjectHasItsOwnBackoffAndAQuietObjectStartsAgainAtOnce() {
    RestoreBackoff backoff = new RestoreBackoff(now::get, 16);
    assertThat(backoff.permit("a")).isTrue();
    assertThat(backoff.permit("a")).isFalse();
    assertThat(backoff.permit("b")).isTrue();
    now.addAndGet(RestoreBackoff.QUIET.toMillis() + 1);
    assertThat(backoff.permit("a")).isTrue();
    assertThat(backoff.permit("a")).isFalse();
    now.addAndGet(RestoreBackoff.FIRST.toMillis());
    assertThat(backoff.permit("a")).as("back to the first delay").isTrue();
  }

  @Test
  void theDelayStopsGrowingAtFiveMinutes() {
    RestoreBackoff backoff = new RestoreBackoff(now::get, 16);
    for (int i = 0; i < 20; i++) {
      now.addAndGet(RestoreBackoff.MAX.toMillis());
      assertThat(backoff.permit("a")).isTrue();
    }
    now.addAndGet(RestoreBackoff.MAX.toMillis() - 1);
    assertThat(backoff.permit("a")).isFalse();
  }

  @Test
  void remembersAtMostItsBoundOfObjects() {
    RestoreBackoff backoff = new RestoreBackoff(now::get, 16);
    for (int i = 0; i < 1000; i++) {
      backoff.permit("object-" + i);
    }
    assertThat(backoff.size()).isEqualTo(16);
    assertThat(backoff.permit("object-999")).as("recent ones are kept").isFalse();
  }
}
