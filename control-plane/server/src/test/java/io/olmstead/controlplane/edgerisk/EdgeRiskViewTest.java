package io.olmstead.controlplane.edgerisk;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A risk as one caller is shown it: its teams' evidence in full, other teams' counted and weighed
 * as rows.
 */
class EdgeRiskViewTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  @Test
  void otherTeamsCountedRowsWeighAsTheRowsTheyStandFor() {
    EdgeFacts facts = EdgeFacts.of(Map.of(), new JsonObject(), List.of());
    Evidence own =
        new Evidence("blue", "etcd", "0.9.2", "0.9.4", "blue-1", facts, false, "ok", "ro-1", NOW);
    EdgeRiskStore.Shown shown =
        new EdgeRiskStore.Shown(
            own,
            List.of(own),
            List.of(
                new EdgeRiskStore.Tally(true, NOW.minusSeconds(60), 3),
                new EdgeRiskStore.Tally(false, NOW, 2)));
    JsonObject json =
        EdgeRiskView.toJson(
            "r1", shown, List.of(), "blue"::equals, NOW, EdgeRiskRule.Params.DEFAULT);
    assertThat(json.getJsonArray("evidence")).hasSize(1);
    assertThat(json.getJsonArray("evidence").getJsonObject(0).getString("cluster"))
        .isEqualTo("blue-1");
    assertThat(json.getJsonObject("otherTeams").getInteger("failures")).isEqualTo(3);
    assertThat(json.getJsonObject("otherTeams").getInteger("successes")).isEqualTo(2);
    assertThat(json.getInteger("failures")).isEqualTo(3);
    assertThat(json.getInteger("successes")).isEqualTo(3);
    // 3 failures against 3 successes: held (a failure outweighs up to 10 successes)
    assertThat(json.getBoolean("held")).isTrue();
    assertThat(json.getString("lastFailureAt")).isEqualTo(NOW.minusSeconds(60).toString());
  }
}
