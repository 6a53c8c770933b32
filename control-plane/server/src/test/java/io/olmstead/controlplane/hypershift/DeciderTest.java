package io.olmstead.controlplane.hypershift;

import static io.olmstead.controlplane.hypershift.HypershiftFixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.hypershift.Decision.Kind;
import io.olmstead.controlplane.hypershift.Decision.Mode;
import io.olmstead.controlplane.hypershift.Known.Holder;
import io.olmstead.controlplane.hypershift.Known.Identity;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The watcher's decisions on the real example HostedCluster of the shared folder and variants of
 * it.
 */
class DeciderTest {
  private static final String ID = "2b6a8d0e-6f1c-4b7e-9a0d-3c5e7f9b1d24";
  private static final String OTHER_ID = "9f9f9f9f-0000-4000-8000-000000000001";
  private static final Instant NOW = Instant.parse("2026-09-01T00:00:00Z");

  private static HostedCluster example(Consumer<Map<String, Object>> change) {
    Map<String, Object> object = HypershiftFixtures.example();
    change.accept(object);
    return HostedCluster.of(object);
  }

  private static Decision decide(HostedCluster hc, Known known) {
    return Decider.decide(hc, true, known, NOW);
  }

  private static Decision enrolledAs(HostedCluster hc) {
    return decide(hc, Known.NOTHING);
  }

  private static Known live(
      Map<String, String> clusterLabels, Map<String, String> applied, JsonObject facts) {
    return new Known(
        Optional.of(new Identity(ID, "clusters-example", false, applied)),
        Optional.of(new Holder("clusters-example", "connected", clusterLabels, facts, ID)));
  }

  @Test
  void enrollsTheExampleAsNamespaceDashNameWithItsLabelsAndFacts() {
    Decision d = enrolledAs(example(o -> {}));
    assertThat(d.kind()).isEqualTo(Kind.ENROLL);
    assertThat(d.mode()).isEqualTo(Mode.NEW);
    assertThat(d.cluster()).isEqualTo("clusters-example");
    assertThat(d.labels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "env",
                "dev",
                "olmstead.io/source",
                "hypershift",
                "hypershift.olmstead.io/platform",
                "AWS",
                "hypershift.olmstead.io/version",
                "4.19.7",
                "hypershift.olmstead.io/namespace",
                "clusters",
                "hypershift.olmstead.io/name",
                "example"));
    assertThat(d.facts())
        .isEqualTo(
            new JsonObject()
                .put("clusterID", ID)
                .put("releaseImage", "quay.io/openshift-release-dev/ocp-release:4.19.7-multi")
                .put("desiredVersion", "4.19.7")
                .put("controlPlaneNamespace", "clusters-example")
                .put("hostedCluster", "clusters/example"));
  }

  @Test
  void theClusterNameAnnotationOverridesTheNameAndDotsBecomeDashes() {
    assertThat(
            enrolledAs(
                    example(
                        o ->
                            at(o, "metadata", "annotations")
                                .put("olmstead.io/cluster-name", "prod-eu-1")))
                .cluster())
        .isEqualTo("prod-eu-1");
    assertThat(enrolledAs(example(o -> at(o, "metadata").put("name", "a.b"))).cluster())
        .isEqualTo("clusters-a-b");
  }

  @Test
  void isNotEnrolledUntilAvailableWithItsKubeconfigAndACompletedVersion() {
    HostedCluster notAvailable =
        example(
            o ->
                conditions(o).stream()
                    .filter(c -> "Available".equals(c.get("type")))
                    .forEach(c -> c.put("status", "False")));
    assertThat(enrolledAs(notAvailable).reason()).isEqualTo("not-available");
    assertThat(Decider.decide(example(o -> {}), false, Known.NOTHING, NOW).reason())
        .isEqualTo("no-kubeconfig");
    assertThat(enrolledAs(example(o -> at(o, "status").remove("kubeconfig"))).reason())
        .isEqualTo("no-kubeconfig");
    HostedCluster partial = example(o -> history(o).forEach(h -> h.put("state", "Partial")));
    assertThat(enrolledAs(partial).kind()).isEqualTo(Kind.IGNORE);
    assertThat(enrolledAs(partial).reason()).isEqualTo("no-completed-version");
  }

  @Test
  void missingOrMalformedStatusIsSkippedWithAReason() {
    assertThat(enrolledAs(example(o -> o.remove("status"))).reason()).isEqualTo("not-available");
    assertThat(enrolledAs(example(o -> at(o, "status").put("conditions", "garbage"))).reason())
        .isEqualTo("not-available");
    assertThat(enrolledAs(example(o -> at(o, "spec").remove("clusterID"))).reason())
        .isEqualTo("no-cluster-id");
  }

  @Test
  void optOutAndDeletionKeepANewHostedClusterOut() {
    Decision optOut =
        enrolledAs(
            example(o -> at(o, "metadata", "annotations").put("olmstead.io/enroll", "false")));
    assertThat(optOut.kind()).isEqualTo(Kind.IGNORE);
    assertThat(optOut.reason()).isEqualTo("opted-out");
    Decision deleting =
        enrolledAs(
            example(o -> at(o, "metadata").put("deletionTimestamp", "2026-08-30T00:00:00Z")));
    assertThat(deleting.kind()).isEqualTo(Kind.IGNORE);
    assertThat(deleting.reason()).isEqualTo("deleting");
  }

  @Test
  void optOutDeletionOrDisappearanceRetiresAnEnrolledCluster() {
    Known known = live(enrolledAs(example(o -> {})).labels(), Map.of(), new JsonObject());
    Decision optOut =
        decide(
            example(o -> at(o, "metadata", "annotations").put("olmstead.io/enroll", "false")),
            known);
    assertThat(optOut.kind()).isEqualTo(Kind.RETIRE);
    assertThat(optOut.cluster()).isEqualTo("clusters-example");
    assertThat(
            decide(
                    example(
                        o -> at(o, "metadata").put("deletionTimestamp", "2026-08-30T00:00:00Z")),
                    known)
                .kind())
        .isEqualTo(Kind.RETIRE);
    assertThat(Decider.gone(new Identity(ID, "clusters-example", false, Map.of())).kind())
        .isEqualTo(Kind.RETIRE);
    assertThat(Decider.gone(new Identity(ID, "clusters-example", true, Map.of())).kind())
        .isEqualTo(Kind.UNCHANGED);
  }

  @Test
  void neverTakesOverAClusterEnrolledOtherwise() {
    Known tokenEnrolled =
        new Known(
            Optional.empty(),
            Optional.of(
                new Holder(
                    "clusters-example",
                    "connected",
                    Map.of("env", "prod"),
                    new JsonObject(),
                    null)));
    Decision d = decide(example(o -> {}), tokenEnrolled);
    assertThat(d.kind()).isEqualTo(Kind.CONFLICT);
    assertThat(d.reason()).isEqualTo("enrolled-otherwise");
    assertThat(d.detail()).contains("clusters-example", ID);
  }

  @Test
  void theSameNameWithAnotherClusterIdIsAnotherCluster() {
    Known otherLive =
        new Known(
            Optional.empty(),
            Optional.of(
                new Holder("clusters-example", "connected", Map.of(), new JsonObject(), OTHER_ID)));
    Decision conflict = decide(example(o -> {}), otherLive);
    assertThat(conflict.kind()).isEqualTo(Kind.CONFLICT);
    assertThat(conflict.reason()).isEqualTo("name-taken");
    Known otherRetired =
        new Known(
            Optional.empty(),
            Optional.of(
                new Holder(
                    "clusters-example",
                    "retired",
                    Map.of("old", "x"),
                    new JsonObject(),
                    OTHER_ID)));
    Decision replace = decide(example(o -> {}), otherRetired);
    assertThat(replace.kind()).isEqualTo(Kind.ENROLL);
    assertThat(replace.mode()).isEqualTo(Mode.REPLACE);
    assertThat(replace.labels()).doesNotContainKey("old");
  }

  @Test
  void aRetiredClusterComesBackWhenItsOptOutIsLifted() {
    Known retired =
        new Known(
            Optional.of(new Identity(ID, "clusters-example", true, Map.of("env", "dev"))),
            Optional.of(
                new Holder(
                    "clusters-example",
                    "retired",
                    Map.of("env", "dev", "team", "a"),
                    new JsonObject(),
                    ID)));
    Decision d = decide(example(o -> {}), retired);
    assertThat(d.kind()).isEqualTo(Kind.ENROLL);
    assertThat(d.mode()).isEqualTo(Mode.REVIVE);
    assertThat(d.labels())
        .containsEntry("team", "a")
        .containsEntry("olmstead.io/source", "hypershift");
  }

  @Test
  void aVersionChangeUpdatesTheLabelsAndKeepsWhatAnAdminAdded() {
    Decision first = enrolledAs(example(o -> {}));
    Map<String, String> clusterLabels = new TreeMap<>(first.labels());
    clusterLabels.put("olmstead.io/team", "payments");
    Known known =
        live(clusterLabels, first.managed(), new JsonObject().put("hypershift", first.facts()));
    assertThat(decide(example(o -> {}), known).kind()).isEqualTo(Kind.UNCHANGED);

    Decision upgraded =
        decide(
            example(
                o -> {
                  history(o).get(0).put("version", "4.19.9");
                  at(o, "metadata", "labels").remove("env");
                }),
            known);
    assertThat(upgraded.kind()).isEqualTo(Kind.UPDATE);
    assertThat(upgraded.labels())
        .containsEntry("hypershift.olmstead.io/version", "4.19.9")
        .containsEntry("olmstead.io/team", "payments")
        .doesNotContainKey("env");
  }

  @Test
  void aPausedHostedClusterIsLabelledPaused() {
    assertThat(enrolledAs(example(o -> at(o, "spec").put("pausedUntil", "true"))).labels())
        .containsEntry("hypershift.olmstead.io/paused", "true");
    assertThat(
            enrolledAs(example(o -> at(o, "spec").put("pausedUntil", "2027-01-01T00:00:00Z")))
                .labels())
        .containsEntry("hypershift.olmstead.io/paused", "true");
    assertThat(
            enrolledAs(example(o -> at(o, "spec").put("pausedUntil", "2026-01-01T00:00:00Z")))
                .labels())
        .doesNotContainKey("hypershift.olmstead.io/paused");
    HostedCluster inactive =
        example(
            o ->
                conditions(o).stream()
                    .filter(c -> "ReconciliationActive".equals(c.get("type")))
                    .forEach(c -> c.put("status", "False")));
    assertThat(enrolledAs(inactive).labels())
        .containsEntry("hypershift.olmstead.io/paused", "true");
  }

  @Test
  void namesAndLabelsKubernetesWouldRefuseAreSkippedWithTheReason() {
    String longName = "a".repeat(60);
    Decision tooLong = enrolledAs(example(o -> at(o, "metadata").put("name", longName)));
    assertThat(tooLong.kind()).isEqualTo(Kind.IGNORE);
    assertThat(tooLong.reason()).isEqualTo("invalid-name");
    assertThat(
            enrolledAs(
                    example(
                        o ->
                            at(o, "metadata", "annotations")
                                .put("olmstead.io/cluster-name", "Bad_Name")))
                .reason())
        .isEqualTo("invalid-name");
    Decision manyLabels =
        enrolledAs(
            example(
                o -> {
                  for (int i = 0; i < 70; i++) {
                    at(o, "metadata", "labels").put("l" + i, "v");
                  }
                }));
    assertThat(manyLabels.kind()).isEqualTo(Kind.IGNORE);
    assertThat(manyLabels.reason()).isEqualTo("too-many-labels");
  }

  @Test
  void aKnownClusterIdKeepsItsNameAndIsEnrolledAgainWhenItsRowWasDeleted() {
    Known rowDeleted =
        new Known(Optional.of(new Identity(ID, "first-name", false, Map.of())), Optional.empty());
    Decision d =
        decide(
            example(o -> at(o, "metadata", "annotations").put("olmstead.io/cluster-name", "other")),
            rowDeleted);
    assertThat(d.kind()).isEqualTo(Kind.ENROLL);
    assertThat(d.cluster()).isEqualTo("first-name");
  }

  @Test
  void aNameRetakenByATokenEnrolledClusterAfterAnAdminDeletedOursIsAConflict() {
    Known retaken =
        new Known(
            Optional.of(new Identity(ID, "clusters-example", false, Map.of())),
            Optional.of(
                new Holder("clusters-example", "connected", Map.of(), new JsonObject(), null)));
    Decision d = decide(example(o -> {}), retaken);
    assertThat(d.kind()).isEqualTo(Kind.CONFLICT);
    assertThat(d.reason()).isEqualTo("enrolled-otherwise");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> conditions(Map<String, Object> o) {
    return (List<Map<String, Object>>) at(o, "status").get("conditions");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> history(Map<String, Object> o) {
    return (List<Map<String, Object>>) at(o, "status", "version").get("history");
  }
}
