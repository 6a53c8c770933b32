package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class AnalysisTeamQueriesTest {
  private static RolloutStrategy strategy(String analysis) {
    return RolloutStrategy.fromJson(new JsonObject("{\"analysis\":" + analysis + "}"));
  }

  @Test
  void aTeamScopedCallerMayNameTemplatesButNotSendInlineQueriesWhichReadEveryTeamsSeries() {
    RolloutStrategy mixed =
        strategy(
            "[{\"name\":\"t\",\"templateName\":\"error-rate\"},"
                + "{\"name\":\"spy\",\"query\":\"sum(up{namespace=\\\"team-b\\\"})\",\"successIf\":\"< 1\"}]");

    ApiException refused = AnalysisChecks.inlineQueriesOfATeam(mixed, true);
    assertThat(refused).isNotNull();
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.toProblem().encode())
        .contains("/strategy/analysis/1/query")
        .doesNotContain("/strategy/analysis/0/");

    assertThat(AnalysisChecks.inlineQueriesOfATeam(mixed, false)).as("a fleet admin may").isNull();
    assertThat(
            AnalysisChecks.inlineQueriesOfATeam(
                strategy("[{\"name\":\"t\",\"templateName\":\"error-rate\"}]"), true))
        .as("templates only")
        .isNull();
  }
}
