package io.olmstead.agent.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  void delaysGrowExponentiallyWithJitterUpToTheCapAndResetAfterSuccess() {
    Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
    for (int attempt = 0; attempt < 30; attempt++) {
      long ceiling = Math.min(5000, 100L << Math.min(attempt, 20));
      assertThat(backoff.nextMillis()).isBetween(100L, ceiling);
    }
    assertThat(backoff.attempt()).isEqualTo(30);
    backoff.reset();
    assertThat(backoff.nextMillis()).isBetween(100L, 100L);
  }

  @Test
  void jitterSpreadsAFleetsReconnects() {
    long distinct =
        java.util.stream.IntStream.range(0, 50)
            .mapToLong(
                i -> {
                  Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(30));
                  for (int k = 0; k < 6; k++) {
                    b.nextMillis();
                  }
                  return b.nextMillis();
                })
            .distinct()
            .count();
    assertThat(distinct).isGreaterThan(10);
  }
}
