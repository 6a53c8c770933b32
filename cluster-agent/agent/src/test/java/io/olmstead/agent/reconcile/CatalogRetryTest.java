package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CatalogRetryTest {
  private final CatalogRetry retry =
      new CatalogRetry(Duration.ofSeconds(1), Duration.ofSeconds(10));

  @Test
  void delaysDoubleFromTheMinimumUpToTheCap() {
    assertThat(retry.next("a")).isEqualTo(Duration.ofSeconds(1));
    assertThat(retry.next("a")).isEqualTo(Duration.ofSeconds(2));
    assertThat(retry.next("a")).isEqualTo(Duration.ofSeconds(4));
    assertThat(retry.next("a")).isEqualTo(Duration.ofSeconds(8));
    for (int i = 0; i < 100; i++) {
      assertThat(retry.next("a")).isEqualTo(Duration.ofSeconds(10));
    }
  }

  @Test
  void eachNamespaceHasItsOwnDelayAndAResetStartsAgain() {
    retry.next("a");
    retry.next("a");
    assertThat(retry.next("b")).isEqualTo(Duration.ofSeconds(1));
    assertThat(retry.waiting()).containsExactlyInAnyOrder("a", "b");
    retry.reset("a");
    assertThat(retry.waiting()).containsExactly("b");
    assertThat(retry.next("a")).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aCapBelowTheMinimumIsRaisedToIt() {
    assertThat(new CatalogRetry(Duration.ofSeconds(5), Duration.ofSeconds(1)).next("a"))
        .isEqualTo(Duration.ofSeconds(5));
  }
}
