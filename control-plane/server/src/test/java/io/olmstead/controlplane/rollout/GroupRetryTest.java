package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * When a multi-target rollout may be retried: every target ended, and one of them did not simply
 * succeed.
 */
class GroupRetryTest {
  @Test
  void aGroupIsRetriedOnceEveryTargetEndedAndOneDidNotSucceed() {
    assertThatNoException()
        .isThrownBy(
            () ->
                GroupRetry.refusal(
                    "ro-db",
                    List.of(target("db", Phase.Failed), target("app", Phase.Aborted)),
                    false));
    // a provider failure held the consumer on a cluster: both end with exceptions, and a retry
    // moves them again
    assertThatNoException()
        .isThrownBy(
            () ->
                GroupRetry.refusal(
                    "ro-db",
                    List.of(
                        target("db", Phase.SucceededWithExceptions),
                        target("app", Phase.SucceededWithExceptions)),
                    false));
    assertThatNoException()
        .isThrownBy(
            () ->
                GroupRetry.refusal(
                    "ro-db",
                    List.of(target("db", Phase.Succeeded), target("app", Phase.RolledBack)),
                    false));
  }

  @Test
  void aGroupStillMovingOrThatSucceededEverywhereIsA409NamingWhy() {
    assertThatThrownBy(
            () ->
                GroupRetry.refusal(
                    "ro-db",
                    List.of(target("db", Phase.Failed), target("app", Phase.Paused)),
                    false))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.getMessage()).contains("target app (rollout ro-app) is Paused");
            });
    assertThatThrownBy(
            () ->
                GroupRetry.refusal(
                    "ro-db",
                    List.of(target("db", Phase.Succeeded), target("app", Phase.Succeeded)),
                    false))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.getMessage())
                  .isEqualTo("every target of rollout ro-db Succeeded: nothing to retry");
            });
  }

  private static Rollout target(String subscription, Phase phase) {
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject("{\"batchSize\":10}"));
    return new Rollout(
        "ro-" + subscription, subscription, "1.0.0", s, phase, List.of(), Map.of(), 0, false, null);
  }
}
