package io.olmstead.agent.reconcile;

import static io.olmstead.agent.reconcile.SubscriptionDeciderTest.cluster;
import static io.olmstead.agent.reconcile.SubscriptionDeciderTest.observed;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a rollback below the installed version goes, and when one is needed, without an API server.
 */
class RollbackTest {
  /**
   * stable: 1.0.0 -> 1.2.0 (which skips 1.1.0); fast: 1.0.0 -> 1.2.0 only; candidate: 1.0.0 ->
   * 1.1.0 -> 1.2.0.
   */
  private static final String FBC =
      """
      {"schema":"olm.package","name":"pkg","defaultChannel":"stable"}
      {"schema":"olm.channel","package":"pkg","name":"stable","entries":[{"name":"pkg.v1.0.0"},{"name":"pkg.v1.1.0"},
        {"name":"pkg.v1.2.0","replaces":"pkg.v1.0.0","skips":["pkg.v1.1.0"]}]}
      {"schema":"olm.channel","package":"pkg","name":"fast","entries":[{"name":"pkg.v1.0.0"},
        {"name":"pkg.v1.2.0","replaces":"pkg.v1.0.0"}]}
      {"schema":"olm.channel","package":"pkg","name":"candidate","entries":[{"name":"pkg.v1.0.0"},
        {"name":"pkg.v1.1.0","replaces":"pkg.v1.0.0"},{"name":"pkg.v1.2.0","replaces":"pkg.v1.1.0"}]}
      {"schema":"olm.bundle","package":"pkg","name":"pkg.v1.0.0","image":"img:1.0.0",
        "properties":[{"type":"olm.package","value":{"packageName":"pkg","version":"1.0.0"}}]}
      {"schema":"olm.bundle","package":"pkg","name":"pkg.v1.1.0","image":"img:1.1.0",
        "properties":[{"type":"olm.package","value":{"packageName":"pkg","version":"1.1.0"}}]}
      {"schema":"olm.bundle","package":"pkg","name":"pkg.v1.2.0","image":"img:1.2.0",
        "properties":[{"type":"olm.package","value":{"packageName":"pkg","version":"1.2.0"}}]}
      """;

  private static final Catalog CATALOG = parse();

  private static Catalog parse() {
    try {
      return CatalogValidator.validate(
              new FbcParser().parse("catalog.json", FBC.getBytes(StandardCharsets.UTF_8)),
              ValidationMode.LENIENT)
          .catalog()
          .orElseThrow();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<String> target(String channel, String maxVersion) {
    return Rollback.target(
            CATALOG, SubscriptionToReconcile.of("s", "cat", "pkg", channel, "ns", maxVersion))
        .map(Bundle::name);
  }

  @Test
  void theTargetIsTheExactPreviousVersionWhenTheChannelHasIt() {
    assertThat(target("candidate", "1.1.0")).contains("pkg.v1.1.0");
  }

  @Test
  void theTargetIsTheHighestVersionAtOrBelowMaxVersion() {
    assertThat(target("candidate", "1.1.9")).contains("pkg.v1.1.0");
    assertThat(target("candidate", "1.0.5")).contains("pkg.v1.0.0");
  }

  @Test
  void onlyBundlesOfTheSubscriptionsChannelAreTargets() {
    assertThat(target("fast", "1.1.0")).contains("pkg.v1.0.0");
  }

  @Test
  void anEntryAnotherEntrySkipsIsStillATarget() {
    assertThat(target("stable", "1.1.0")).contains("pkg.v1.1.0");
  }

  @Test
  void anEmptyChannelMeansThePackagesDefaultChannel() {
    assertThat(target("", "1.1.0")).contains("pkg.v1.1.0");
  }

  @Test
  void thereIsNoTargetWhenEveryBundleIsAboveMaxVersionOrThePackageIsUnknown() {
    assertThat(target("candidate", "0.9.0")).isEmpty();
    assertThat(target("no-such-channel", "1.1.0")).isEmpty();
    assertThat(
            Rollback.target(
                CATALOG, SubscriptionToReconcile.of("s", "cat", "other", "stable", "ns", "1.1.0")))
        .isEmpty();
  }

  @Test
  void anInstalledBundleAboveARolloutsApprovedVersionNeedsARollback() {
    SubscriptionToReconcile sub =
        SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", null).withRollbackTo("1.0.0");
    assertThat(Rollback.aboveCeiling(sub, cluster(observed("1.1.0", CsvPhase.SUCCEEDED))))
        .hasValueSatisfying(b -> assertThat(b.bundle()).isEqualTo("pkg.v1.1.0"));
  }

  @Test
  void anUpgradeInProgressAboveMaxVersionNeedsARollbackToo() {
    SubscriptionToReconcile sub =
        SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", null).withRollbackTo("1.0.0");
    assertThat(
            Rollback.aboveCeiling(
                sub,
                cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.FAILED))))
        .hasValueSatisfying(b -> assertThat(b.bundle()).isEqualTo("pkg.v1.1.0"));
  }

  @Test
  void aLowerMaxVersionThatIsNoRolloutsApprovalSendsNothingBack() {
    assertThat(
            Rollback.aboveCeiling(
                SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", "1.0.0"),
                cluster(observed("1.1.0", CsvPhase.SUCCEEDED))))
        .isEmpty();
  }

  @Test
  void atOrBelowMaxVersionOrWithoutOneNothingIsRolledBack() {
    ObservedSubscription installed = cluster(observed("1.1.0", CsvPhase.SUCCEEDED));
    assertThat(
            Rollback.aboveCeiling(
                SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", "1.1.0"), installed))
        .isEmpty();
    assertThat(
            Rollback.aboveCeiling(
                SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", null), installed))
        .isEmpty();
    assertThat(
            Rollback.aboveCeiling(
                SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", "not-a-version"),
                installed))
        .isEmpty();
  }
}
