package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.edgerisk.EdgeRiskRule;
import io.olmstead.controlplane.edgerisk.Evidence;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which subscriptions of a cluster's desired state an edge at risk keeps where they run, outside
 * rollouts.
 */
class EdgeHoldFilterTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final EdgeFacts FIPS = facts("true");
  private static final EdgeFacts NO_FIPS = facts("false");
  private static final String PKG = "etcd";
  private static final List<Evidence> FAILED_ON_FIPS =
      List.of(
          new Evidence(
              "red",
              PKG,
              "0.2.0",
              "0.3.0",
              "elsewhere",
              FIPS,
              true,
              "InstallCheckFailed",
              "subscriptions/a",
              NOW.minusSeconds(60)));
  private static final String RISK = FIPS.riskId(PKG, "0.2.0", "0.3.0");

  private static EdgeFacts facts(String fips) {
    return EdgeFacts.of(
        Map.of("fips", fips), new JsonObject().put("kubernetesVersion", "1.29.4"), List.of("fips"));
  }

  private static DesiredSubscription desired(String name, String maxVersion, Boolean rollback) {
    return new DesiredSubscription(
        name,
        "cat",
        "sha256:1",
        PKG,
        "stable",
        "ns",
        List.of(),
        "Automatic",
        null,
        maxVersion,
        Map.of(),
        null,
        3,
        null,
        rollback,
        null);
  }

  private static EdgeHoldFilter filter(Map<String, Map<String, Instant>> accepted) {
    return new EdgeHoldFilter(
        new EdgeHoldFilter.Inputs(
            FAILED_ON_FIPS,
            Map.of(
                "c-fips",
                Map.of("b", "0.2.0", "same", "0.3.0", "approved", "0.2.0", "older", "0.1.0"),
                "c-plain",
                Map.of("b", "0.2.0")),
            Map.of("c-fips", FIPS, "c-plain", NO_FIPS),
            accepted,
            NOW,
            EdgeRiskRule.Params.DEFAULT));
  }

  @Test
  void keepsTheSubscriptionWhereItRunsOnAClusterWithMatchingFactsAndNamesTheRisk() {
    EdgeHoldFilter.Applied applied =
        filter(Map.of()).apply("c-fips", List.of(desired("b", "0.3.0", null)), Map.of("b", "blue"));
    assertThat(applied.desired())
        .extracting(DesiredSubscription::maxVersion)
        .containsExactly("0.2.0");
    assertThat(applied.desired().get(0).generation()).isEqualTo(3);
    assertThat(applied.held()).hasSize(1);
    EdgeHoldFilter.Held held = applied.held().get(0);
    assertThat(held.riskId()).isEqualTo(RISK);
    assertThat(held.from()).isEqualTo("0.2.0");
    assertThat(held.to()).isEqualTo("0.3.0");
    assertThat(held.message())
        .startsWith("EdgeAtRisk (risk " + RISK + ": etcd 0.2.0 -> 0.3.0 failed on 1 cluster")
        .contains("fips=true")
        .doesNotContain("elsewhere")
        .doesNotContain("red");
  }

  @Test
  void letsEverythingElseMove() {
    List<DesiredSubscription> desired = List.of(desired("b", "0.3.0", null));
    assertThat(filter(Map.of()).apply("c-plain", desired, Map.of()).held())
        .as("other facts")
        .isEmpty();
    assertThat(filter(Map.of()).apply("c-unknown", desired, Map.of()).held())
        .as("nothing installed known")
        .isEmpty();
    assertThat(
            filter(Map.of())
                .apply(
                    "c-fips",
                    List.of(
                        desired("same", "0.3.0", null),
                        desired("older", "0.3.0", null),
                        desired("new", "0.3.0", null),
                        desired("b", null, null)),
                    Map.of())
                .held())
        .as("at the target, another edge, a first install, a blocked subscription")
        .isEmpty();
    assertThat(
            filter(Map.of())
                .apply("c-fips", List.of(desired("approved", "0.3.0", true)), Map.of())
                .held())
        .as("a rollout's approval: its engine holds its clusters")
        .isEmpty();
    EdgeHoldFilter none = new EdgeHoldFilter(EdgeHoldFilter.Inputs.NONE);
    assertThat(none.apply("c-fips", desired, Map.of()).desired()).isSameAs(desired);
  }

  @Test
  void anAcceptanceOfTheSubscriptionsTeamOrOfEveryoneReleasesItAnotherTeamsDoesNot() {
    List<DesiredSubscription> desired = List.of(desired("b", "0.3.0", null));
    Map<String, String> teams = Map.of("b", "blue");
    assertThat(filter(Map.of(RISK, Map.of("blue", NOW))).apply("c-fips", desired, teams).held())
        .isEmpty();
    assertThat(filter(Map.of(RISK, Map.of("*", NOW))).apply("c-fips", desired, teams).held())
        .isEmpty();
    assertThat(filter(Map.of(RISK, Map.of("red", NOW))).apply("c-fips", desired, teams).held())
        .hasSize(1);
    assertThat(
            filter(Map.of(RISK, Map.of("blue", NOW.minusSeconds(3600))))
                .apply("c-fips", desired, teams)
                .held())
        .as("accepted before the failure")
        .hasSize(1);
    assertThat(filter(Map.of(RISK, Map.of("", NOW))).apply("c-fips", desired, Map.of()).held())
        .as("a subscription of no team")
        .isEmpty();
  }
}
