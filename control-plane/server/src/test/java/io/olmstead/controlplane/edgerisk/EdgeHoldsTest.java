package io.olmstead.controlplane.edgerisk;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which candidates an edge's evidence holds, and what the reason says (and does not say). */
class EdgeHoldsTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final List<String> NAMED = List.of("fips");
  private static final EdgeFacts FIPS = facts("v1.29.4", "true");
  private static final EdgeFacts NO_FIPS = facts("v1.29.1", "false");

  @Test
  void factsMatchOnMinorVersionsPlatformAndTheNamedLabelsOnly() {
    EdgeFacts a =
        EdgeFacts.of(
            Map.of("fips", "true", "region", "eu", "hypershift.olmstead.io/platform", "AWS"),
            new JsonObject().put("kubernetesVersion", "v1.29.4").put("openshiftVersion", "4.16.3"),
            NAMED);
    EdgeFacts b =
        EdgeFacts.of(
            Map.of("fips", "true", "region", "us", "hypershift.olmstead.io/platform", "AWS"),
            new JsonObject().put("kubernetesVersion", "1.29.0").put("openshiftVersion", "4.16.9"),
            NAMED);
    assertThat(a).isEqualTo(b);
    assertThat(a.riskId("p", "1.0.0", "1.1.0"))
        .isEqualTo(b.riskId("p", "1.0.0", "1.1.0"))
        .hasSize(16);
    assertThat(a.describe())
        .isEqualTo("kubernetesVersion=1.29, fips=true, openshiftVersion=4.16, platform=AWS");
    assertThat(EdgeFacts.fromJson(a.toJson())).isEqualTo(a);
    // an absent label is not an empty one
    assertThat(EdgeFacts.of(Map.of(), new JsonObject(), NAMED))
        .isNotEqualTo(EdgeFacts.of(Map.of("fips", ""), new JsonObject(), NAMED));
    assertThat(a.riskId("p", "1.0.0", "1.2.0")).isNotEqualTo(a.riskId("p", "1.0.0", "1.1.0"));
  }

  @Test
  void holdsTheCandidatesWithMatchingFactsAndNamesNoCluster() {
    List<Evidence> evidence = List.of(failure("team-b", "secret-cluster", FIPS));
    Map<String, EdgeHolds.Hold> holds =
        EdgeHolds.decide(
            "etcd",
            "0.3.0",
            List.of(
                new EdgeHolds.Candidate("a1", "0.2.0", facts("1.29.9", "true")),
                new EdgeHolds.Candidate("a2", "0.2.0", NO_FIPS),
                new EdgeHolds.Candidate("a3", "0.1.0", FIPS),
                new EdgeHolds.Candidate("a4", null, FIPS)),
            evidence,
            Map.of(),
            NOW,
            EdgeRiskRule.Params.DEFAULT);
    assertThat(holds).containsOnlyKeys("a1");
    String id = FIPS.riskId("etcd", "0.2.0", "0.3.0");
    assertThat(holds.get("a1").riskId()).isEqualTo(id);
    assertThat(holds.get("a1").message())
        .isEqualTo(
            "EdgeAtRisk (risk "
                + id
                + ": etcd 0.2.0 -> 0.3.0 failed on 1 "
                + "cluster and succeeded on 0 with matching facts kubernetesVersion=1.29, fips=true; accept with POST "
                + "/api/v1/edge-risks/"
                + id
                + "/accept)");
    assertThat(holds.get("a1").message()).doesNotContain("secret-cluster").doesNotContain("team-b");
    assertThat(EdgeHolds.riskOf(holds.get("a1").message())).isEqualTo(id);
    assertThat(EdgeHolds.riskOf("PreflightFailed: x")).isNull();
  }

  @Test
  void anAcceptanceNewerThanTheFailuresLetsThemMove() {
    String id = FIPS.riskId("etcd", "0.2.0", "0.3.0");
    List<EdgeHolds.Candidate> one = List.of(new EdgeHolds.Candidate("a1", "0.2.0", FIPS));
    List<Evidence> evidence = List.of(failure("", "c1", FIPS));
    assertThat(
            EdgeHolds.decide(
                "etcd",
                "0.3.0",
                one,
                evidence,
                Map.of(id, NOW.plusSeconds(1)),
                NOW,
                EdgeRiskRule.Params.DEFAULT))
        .isEmpty();
    assertThat(
            EdgeHolds.decide(
                "etcd",
                "0.3.0",
                one,
                evidence,
                Map.of(id, NOW.minusSeconds(1)),
                NOW,
                EdgeRiskRule.Params.DEFAULT))
        .containsOnlyKeys("a1");
  }

  private static Evidence failure(String team, String cluster, EdgeFacts facts) {
    return new Evidence(
        team,
        "etcd",
        "0.2.0",
        "0.3.0",
        cluster,
        facts,
        true,
        "install failed",
        "rollouts/ro-1",
        NOW);
  }

  private static EdgeFacts facts(String kube, String fips) {
    return EdgeFacts.of(
        Map.of("fips", fips), new JsonObject().put("kubernetesVersion", kube), NAMED);
  }
}
