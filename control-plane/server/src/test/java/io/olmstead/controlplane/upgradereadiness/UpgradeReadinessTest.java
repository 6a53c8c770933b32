package io.olmstead.controlplane.upgradereadiness;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Blocker;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Candidate;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Installed;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Minor;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Upgrade readiness as OLM on OpenShift computes it, table by table. */
class UpgradeReadinessTest {
  private static final Map<String, List<Candidate>> CATALOG =
      Map.of(
          "c/op",
          List.of(
              new Candidate("op.v1.0.0", "1.0.0", "4.16"),
                  new Candidate("op.v1.1.0", "1.1.0", "4.17"),
              new Candidate("op.v1.2.0", "1.2.0", "4.18"),
                  new Candidate("op.v2.0.0", "2.0.0", null),
              new Candidate("op.v0.9.0", "0.9.0", null),
                  new Candidate("op.v3.0.0-rc.1", "3.0.0-rc.1", "4.20")));

  private static Installed op(String version, String max) {
    return new Installed("op-sub", "op-ns", "c", "op", "op.v" + version, version, max, true);
  }

  @ParameterizedTest(name = "max {0} with target {1}: allows {2}")
  @CsvSource({
    "4.16, 4.17, false",
    "4.17, 4.17, true",
    "4.18, 4.17, true",
    "'\"4.16\"', 4.17, false",
    "5.0, 4.99, true",
    "4.99, 5.0, false",
    ", 4.17, true",
    "not-a-version, 4.17, true",
    "v4.16, 4.17, false"
  })
  void aMaximumAllowsTargetsUpToItsMinorAndNoMaximumAllowsAll(
      String max, String target, boolean allows) {
    assertThat(UpgradeReadiness.allows(max, Minor.of(target).orElseThrow())).isEqualTo(allows);
  }

  @ParameterizedTest(name = "{0} -> next minor {1}")
  @CsvSource({"4.16.2, 4.17", "4.16, 4.17", "v4.15.0-rc.3, 4.16", "4.19.7+build, 4.20"})
  void theTargetIsTheNextMinorIgnoringPatchAndPreRelease(String version, String next) {
    assertThat(Minor.of(version).orElseThrow().next().toString()).isEqualTo(next);
  }

  @ParameterizedTest
  @CsvSource({"''", "latest", "4", "four.two"})
  void whatIsNotAVersionHasNoMinor(String version) {
    assertThat(Minor.of(version)).isEmpty();
  }

  @Test
  void aBlockerNamesTheNewerVersionsWhoseMaximumAllowsTheTargetLowestFirst() {
    List<Blocker> blockers =
        UpgradeReadiness.blockers(new Minor(4, 18), List.of(op("1.0.0", "4.16")), CATALOG);
    assertThat(blockers)
        .singleElement()
        .satisfies(
            b ->
                assertThat(b.unblockedBy())
                    .as("1.1.0 stops at 4.17, 0.9.0 is older")
                    .containsExactly("1.2.0", "2.0.0", "3.0.0-rc.1"));
    assertThat(UpgradeReadiness.blockers(new Minor(4, 17), List.of(op("1.1.0", "4.17")), CATALOG))
        .isEmpty();
    assertThat(UpgradeReadiness.blockers(new Minor(4, 21), List.of(op("2.0.0", null)), CATALOG))
        .isEmpty();
  }

  @Test
  void anOperatorWithoutCatalogCandidatesBlocksWithNoWayOut() {
    Installed other = new Installed("x", "x-ns", "c", "other", "other.v1", "1.0.0", "4.10", true);
    assertThat(UpgradeReadiness.blockers(new Minor(4, 11), List.of(other), CATALOG))
        .singleElement()
        .satisfies(b -> assertThat(b.unblockedBy()).isEmpty());
  }

  @Test
  void theMessageReadsLikeOlmsAndHidesAnotherTeamsNames() {
    Installed hidden =
        new Installed(
            "secret-sub", "secret-ns", "c", "secret", "secret.v1", "1.0.0", "4.15", false);
    String message =
        UpgradeReadiness.message(
            UpgradeReadiness.blockers(
                new Minor(4, 17), List.of(op("1.0.0", "4.16"), hidden), CATALOG));
    assertThat(message)
        .isEqualTo(
            "The following operators block OpenShift upgrades: Operator op.v1.0.0 in namespace"
                + " op-ns is not compatible with OpenShift versions greater than 4.16,An operator of another team is not"
                + " compatible with OpenShift versions greater than 4.15");
    assertThat(UpgradeReadiness.message(List.of())).isNull();
  }

  @Test
  void theVersionComesFromTheHostedClusterThenTheAgentThenTheLabel() {
    JsonObject facts =
        new JsonObject()
            .put("hypershift", new JsonObject().put("desiredVersion", "4.17.1"))
            .put("openshiftVersion", "4.16.3");
    Map<String, String> labels = Map.of("hypershift.olmstead.io/version", "4.16.0");
    assertThat(UpgradeReadiness.version(labels, facts).orElseThrow().source())
        .isEqualTo("hostedCluster");
    assertThat(
            UpgradeReadiness.version(labels, new JsonObject().put("openshiftVersion", "4.16.3"))
                .orElseThrow())
        .extracting(UpgradeReadiness.ClusterVersion::version)
        .isEqualTo("4.16.3");
    assertThat(UpgradeReadiness.version(labels, new JsonObject()).orElseThrow().source())
        .isEqualTo("label");
    assertThat(
            UpgradeReadiness.version(
                Map.of(), new JsonObject().put("kubernetesVersion", "v1.30.0")))
        .isEmpty();
  }
}
