package io.olmstead.controlplane.edgerisk;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Edge-risk evidence on PostgreSQL through the API: a flood is bounded per team and edge and per
 * team and deduplicated per cluster, without crowding out another team; a team sees its own
 * clusters and only the counts of another's; acceptances and clearing are per team and audited.
 */
class EdgeRiskApiIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MICROS);
  private static final EdgeFacts FACTS =
      EdgeFacts.of(Map.of(), new JsonObject().put("kubernetesVersion", "v1.29.2"), List.of());
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures db;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(TestDatabase.create(EdgeRiskApiIT.class), Map.of());
    api = new ApiClient(cp);
    db = new RolloutFixtures(cp.database());
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void aFloodIsBoundedPerTeamAndEdgeAndPerTeamAndDedupedPerClusterWithoutCrowdingOutAnotherTeam()
      throws Exception {
    EdgeRiskSettings bounds = new EdgeRiskSettings(List.of(), 5, 8, 14, 10);
    List<Evidence> same = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      same.add(failure("flood", "flood-pkg", "1.0.0", "1.1.0", "f-0"));
    }
    record(bounds, same);
    assertThat(rows("flood")).as("one row per cluster and edge").isEqualTo(1);

    List<Evidence> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(failure("flood", "flood-pkg", "1.0.0", "1.1.0", "f-" + i));
    }
    EdgeRecorder.Recorded r = record(bounds, many);
    assertThat(rows("flood")).as("at most 5 clusters per team and edge").isEqualTo(5);
    assertThat(r.kept()).isEqualTo(5);
    assertThat(r.dropped()).isEqualTo(95);

    List<Evidence> edges = new ArrayList<>();
    for (int e = 0; e < 20; e++) {
      for (int c = 0; c < 3; c++) {
        edges.add(failure("flood", "flood-pkg", "1." + e + ".9", "2.0.0", "g-" + c));
      }
    }
    record(bounds, edges);
    assertThat(rows("flood")).as("at most 8 rows per team").isEqualTo(8);

    assertThat(
            record(bounds, List.of(failure("calm", "flood-pkg", "1.0.0", "1.1.0", "c-1"))).kept())
        .as("another team's evidence is still recorded")
        .isEqualTo(1);
    Evidence lonely =
        new Evidence("calm", "other-pkg", "1.0.0", "1.1.0", "c-1", FACTS, false, null, "test", NOW);
    assertThat(record(bounds, List.of(lonely)).kept())
        .as("a success on an edge that never failed is not kept")
        .isZero();
  }

  @Test
  void aTeamSeesItsClustersAndOnlyCountsOfAnotherTeamsAndAcceptsAndClearsForItself()
      throws Exception {
    record(
        EdgeRiskSettings.DEFAULT,
        List.of(
            failure("team-a", "iso", "1.0.0", "1.1.0", "a-secret-1"),
            failure("team-b", "iso", "1.0.0", "1.1.0", "b-secret-1"),
            failure("team-a", "iso", "1.0.0", "1.2.0", "a-secret-2"),
            new Evidence(
                "team-b",
                "iso",
                "1.0.0",
                "1.1.0",
                "b-secret-2",
                FACTS,
                false,
                null,
                "rollouts/ro-b",
                NOW)));
    String id = FACTS.riskId("iso", "1.0.0", "1.1.0");
    String onlyA = FACTS.riskId("iso", "1.0.0", "1.2.0");
    String a = api.createToken(ADMIN, "a-operator", "operator", List.of("team-a"));
    String b = api.createToken(ADMIN, "b-operator", "operator", List.of("team-b"));

    ApiClient.Response asA = api.get("/api/v1/edge-risks?package=iso", a);
    assertThat(asA.status()).as(asA.body()).isEqualTo(200);
    assertThat(asA.body())
        .doesNotContain("b-secret")
        .doesNotContain("team-b")
        .doesNotContain("ro-b");
    JsonObject risk = byId(asA.items(), id);
    assertThat(risk.getBoolean("held")).isTrue();
    assertThat(risk.getInteger("failures")).isEqualTo(2);
    assertThat(risk.getInteger("successes")).isEqualTo(1);
    assertThat(risk.getJsonArray("evidence")).hasSize(1);
    assertThat(risk.getJsonArray("evidence").getJsonObject(0).getString("cluster"))
        .isEqualTo("a-secret-1");
    assertThat(risk.getJsonObject("otherTeams"))
        .isEqualTo(new JsonObject().put("failures", 1).put("successes", 1));
    assertThat(risk.getJsonObject("facts"))
        .isEqualTo(
            new JsonObject().put("kubernetesVersion", "1.29").put("labels", new JsonObject()));
    assertThat(
            byId(api.get("/api/v1/edge-risks?package=iso", ADMIN).items(), id)
                .getJsonArray("evidence"))
        .as("an unscoped caller sees every team's")
        .hasSize(3);

    ApiClient.Response accepted =
        api.json(
            "POST",
            "/api/v1/edge-risks/" + id + "/accept",
            a,
            new JsonObject().put("comment", "known FIPS issue, fixed in 1.1.1"));
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
    assertThat(accepted.json().getJsonArray("acceptances").getJsonObject(0).getString("team"))
        .isEqualTo("team-a");
    assertThat(api.get("/api/v1/edge-risks/" + id, b).body())
        .doesNotContain("team-a")
        .doesNotContain("a-operator");
    assertThat(
            db.count(
                "SELECT count(*) FROM audit_log WHERE action = 'edgerisk.accept' AND resource = ? "
                    + "AND actor = 'token:a-operator'",
                "edge-risks/" + id))
        .isEqualTo(1);
    ApiClient.Response foreignTeam =
        api.json(
            "POST",
            "/api/v1/edge-risks/" + id + "/accept",
            a,
            new JsonObject().put("team", "team-b"));
    assertThat(foreignTeam.status()).isEqualTo(422);
    assertThat(foreignTeam.body()).contains("/team");

    assertThat(api.delete("/api/v1/edge-risks/" + onlyA, b).status())
        .as("team-a's evidence only")
        .isEqualTo(403);
    assertThat(api.delete("/api/v1/edge-risks/" + id, a).status()).isEqualTo(204);
    JsonObject left = api.get("/api/v1/edge-risks/" + id, ADMIN).json();
    assertThat(left.getJsonArray("evidence"))
        .extracting(o -> ((JsonObject) o).getString("cluster"))
        .containsExactlyInAnyOrder("b-secret-1", "b-secret-2");
    assertThat(left.getJsonArray("acceptances")).isEmpty();
    assertThat(
            db.count(
                "SELECT count(*) FROM audit_log WHERE action = 'edgerisk.clear' AND resource = ?",
                "edge-risks/" + id))
        .isEqualTo(1);
    assertThat(api.get("/api/v1/edge-risks/" + "0".repeat(16), ADMIN).status()).isEqualTo(404);
  }

  private static JsonObject byId(JsonArray items, String id) {
    return items.stream()
        .map(JsonObject.class::cast)
        .filter(r -> id.equals(r.getString("id")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no risk " + id + " in " + items.encode()));
  }

  private static long rows(String team) {
    return db.count("SELECT count(*) FROM edge_risk_observations WHERE team = ?", team);
  }

  private static Evidence failure(String team, String pkg, String from, String to, String cluster) {
    return new Evidence(
        team, pkg, from, to, cluster, FACTS, true, "install failed", "rollouts/ro-" + team, NOW);
  }

  private static EdgeRecorder.Recorded record(EdgeRiskSettings settings, List<Evidence> batch)
      throws Exception {
    return cp.controlPlane()
        .pool()
        .withTransaction(tx -> new EdgeRecorder(settings).record(tx, batch))
        .toCompletionStage()
        .toCompletableFuture()
        .get(60, TimeUnit.SECONDS);
  }
}
