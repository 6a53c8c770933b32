package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Property;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every step decision, without an API server. */
class SubscriptionDeciderTest {
  private static final UpgradeDecision ALLOW = UpgradeDecision.allow();
  private static final SubscriptionToReconcile AUTO =
      SubscriptionToReconcile.of("s", "cat", "pkg", "stable", "ns", null);
  private static final SubscriptionToReconcile MANUAL =
      AUTO.withApproval(SubscriptionToReconcile.Approval.MANUAL);

  static Bundle bundle(String version) {
    ObjectNode value =
        new ObjectMapper().createObjectNode().put("packageName", "pkg").put("version", version);
    return new Bundle(
        "pkg", "pkg.v" + version, "img", List.of(new Property("olm.package", value)), List.of());
  }

  static ObservedBundle observed(String version, CsvPhase phase) {
    return new ObservedBundle(
        "s",
        "pkg.v" + version,
        phase,
        "pkg",
        "cat",
        "stable",
        version,
        null,
        false,
        List.of(),
        List.of(),
        null);
  }

  static ObservedSubscription cluster(ObservedBundle... bundles) {
    return new ObservedSubscription("s", List.of(bundles));
  }

  @Test
  void installsTheResolvedBundleWhenNothingIsInstalled() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO, cluster(), Optional.of(bundle("1.0.0")), null, null, ALLOW, null);
    assertThat(d.action()).isEqualTo(Decision.Action.INSTALL);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void upgradesFromTheInstalledBundle() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
            Optional.of(bundle("1.1.0")),
            null,
            null,
            ALLOW,
            null);
    assertThat(d.action()).isEqualTo(Decision.Action.UPGRADE);
    assertThat(d.replaces()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void finishesAStartedUpgradeBeforeConsideringTheNextEdge() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.INSTALLING)),
            Optional.of(bundle("1.2.0")),
            null,
            null,
            UpgradeDecision.block("no"),
            null);
    assertThat(d.action()).isEqualTo(Decision.Action.CONTINUE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(d.replaces()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void aFailedAttemptGivesWayToTheNextBundleTheResolverOffers() {
    Decision fresh =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.FAILED)),
            Optional.of(bundle("1.1.0")),
            null,
            null,
            ALLOW,
            null);
    assertThat(fresh.action()).isEqualTo(Decision.Action.INSTALL);
    assertThat(fresh.bundle()).isEqualTo("pkg.v1.1.0");
    Decision upgrade =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.FAILED)),
            Optional.of(bundle("1.2.0")),
            null,
            null,
            ALLOW,
            null);
    assertThat(upgrade.action()).isEqualTo(Decision.Action.UPGRADE);
    assertThat(upgrade.bundle()).isEqualTo("pkg.v1.2.0");
    assertThat(upgrade.replaces()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void aFailedAttemptWithNothingNewerKeepsBeingDriven() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.FAILED)),
            Optional.of(bundle("1.0.0")),
            null,
            null,
            ALLOW,
            null);
    assertThat(d.action()).isEqualTo(Decision.Action.CONTINUE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void staysWhenTheResolverChoseNothingNew() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
            Optional.empty(),
            null,
            null,
            ALLOW,
            null);
    assertThat(d.action()).isEqualTo(Decision.Action.STEADY);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void manualApprovalHoldsUntilExactlyThatBundleIsApproved() {
    Optional<Bundle> next = Optional.of(bundle("1.1.0"));
    ObservedSubscription installed = cluster(observed("1.0.0", CsvPhase.SUCCEEDED));
    Decision none = SubscriptionDecider.decide(MANUAL, installed, next, null, null, ALLOW, null);
    Decision other =
        SubscriptionDecider.decide(MANUAL, installed, next, null, "pkg.v1.2.0", ALLOW, null);
    Decision exact =
        SubscriptionDecider.decide(MANUAL, installed, next, null, "pkg.v1.1.0", ALLOW, null);
    assertThat(none.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(none.held().name()).isEqualTo("pkg.v1.1.0");
    assertThat(none.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(other.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(exact.action()).isEqualTo(Decision.Action.UPGRADE);
  }

  @Test
  void manualApprovalAlsoGatesTheFirstInstall() {
    Decision d =
        SubscriptionDecider.decide(
            MANUAL, cluster(), Optional.of(bundle("1.0.0")), null, null, ALLOW, null);
    assertThat(d.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(d.bundle()).isNull();
  }

  @Test
  void notUpgradeableBlocksWithTheOlmReason() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
            Optional.of(bundle("1.1.0")),
            null,
            null,
            UpgradeDecision.block("migrating"),
            null);
    assertThat(d.action()).isEqualTo(Decision.Action.BLOCKED);
    assertThat(d.reason()).isEqualTo("OperatorConditionNotUpgradeable");
    assertThat(d.message()).isEqualTo("operator is not upgradeable: migrating");
    assertThat(d.held().name()).isEqualTo("pkg.v1.1.0");
  }

  @Test
  void resolutionFailureIsUnresolvedButKeepsTheInstalledBundle() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
            Optional.empty(),
            "constraints not satisfiable: x",
            null,
            ALLOW,
            null);
    assertThat(d.action()).isEqualTo(Decision.Action.UNRESOLVED);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(d.message()).startsWith("constraints not satisfiable");
    assertThat(d.reason()).isEqualTo("ConstraintsNotSatisfiable");
    SubscriptionStatus s =
        StatusBoard.status(
            AUTO,
            observed("1.0.0", CsvPhase.SUCCEEDED),
            null,
            new CsvStatus(CsvPhase.SUCCEEDED, CsvReason.INSTALL_SUCCESSFUL, "done"),
            d,
            List.of());
    assertThat(s.conditions())
        .anySatisfy(
            c -> {
              assertThat(c.type()).isEqualTo("ResolutionFailed");
              assertThat(c.reason()).isEqualTo("ConstraintsNotSatisfiable");
              assertThat(c.message()).startsWith("constraints not satisfiable");
            });
  }

  @Test
  void aControlPlaneBlockKeepsWhatIsInstalled() {
    SubscriptionToReconcile blocked =
        new SubscriptionToReconcile(
            "s",
            "cat",
            null,
            "pkg",
            "stable",
            "ns",
            List.of(),
            null,
            null,
            null,
            null,
            false,
            1,
            "no version matches the policy");
    Decision installed =
        SubscriptionDecider.decide(
            blocked,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
            Optional.of(bundle("1.1.0")),
            null,
            null,
            ALLOW,
            null);
    Decision nothing =
        SubscriptionDecider.decide(
            blocked, cluster(), Optional.of(bundle("1.1.0")), null, null, ALLOW, null);
    assertThat(installed.action()).isEqualTo(Decision.Action.STEADY);
    assertThat(nothing.action()).isEqualTo(Decision.Action.UNRESOLVED);
    assertThat(nothing.message()).isEqualTo("no version matches the policy");
  }

  @Test
  void aMaturityHoldWithAMaxVersionStillInstallsAndUpgradesUpToIt() {
    SubscriptionToReconcile held =
        new SubscriptionToReconcile(
            "s",
            "cat",
            null,
            "pkg",
            "stable",
            "ns",
            List.of(),
            null,
            "pkg.v1.1.0",
            "1.1.0",
            null,
            false,
            1,
            "held at pkg.v1.1.0: pkg.v1.2.0 breaks security/rbac-wildcard");
    Decision upgrade =
        SubscriptionDecider.decide(
            held,
            cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
            Optional.of(bundle("1.1.0")),
            null,
            null,
            ALLOW,
            null);
    Decision install =
        SubscriptionDecider.decide(
            held, cluster(), Optional.of(bundle("1.1.0")), null, null, ALLOW, null);
    assertThat(upgrade.action()).isEqualTo(Decision.Action.UPGRADE);
    assertThat(upgrade.bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(install.action()).isEqualTo(Decision.Action.INSTALL);
  }

  @Test
  void theNewestSucceededBundleIsTheInstalledOne() {
    ObservedSubscription both =
        cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.SUCCEEDED));
    assertThat(both.installed().orElseThrow().bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(both.inProgress()).isEmpty();
  }

  private static final SubscriptionToReconcile BACK = AUTO.withRollbackTo("1.0.0");

  @Test
  void aLowerCeilingThatIsNoRollbackKeepsTheInstalledBundle() {
    Decision d =
        SubscriptionDecider.decide(
            AUTO.withMaxVersion("1.0.0"), AT_1_1, STAY_1_1, null, null, ALLOW, null);
    assertThat(d.action()).isEqualTo(Decision.Action.STEADY);
    assertThat(d.bundle()).isEqualTo("pkg.v1.1.0");
  }

  private static final ObservedSubscription AT_1_1 = cluster(observed("1.1.0", CsvPhase.SUCCEEDED));
  private static final Optional<Bundle> STAY_1_1 =
      Optional.of(bundle("1.1.0")); // the resolver never goes down

  @Test
  void rollsBackWhenTheInstalledBundleIsAboveMaxVersion() {
    Decision d =
        SubscriptionDecider.decide(
            BACK, AT_1_1, STAY_1_1, null, null, ALLOW, Rollback.to(bundle("1.0.0"), null));
    assertThat(d.action()).isEqualTo(Decision.Action.DOWNGRADE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(d.replaces()).isEqualTo("pkg.v1.1.0");
    assertThat(d.moves()).isTrue();
  }

  @Test
  void aDowngradeTheCrdRulesRejectIsRefusedAndTheInstalledBundleKept() {
    Decision d =
        SubscriptionDecider.decide(
            BACK,
            AT_1_1,
            STAY_1_1,
            null,
            null,
            ALLOW,
            Rollback.to(
                bundle("1.0.0"),
                "risk of data loss updating \"w.example.com\": new CRD removes version v2 that is listed as a stored version"));
    assertThat(d.action()).isEqualTo(Decision.Action.DOWNGRADE_REFUSED);
    assertThat(d.reason()).isEqualTo(SubscriptionStatus.DOWNGRADE_REFUSED);
    assertThat(d.message()).startsWith("downgrade to pkg.v1.0.0 refused: risk of data loss");
    assertThat(d.bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(d.held().name()).isEqualTo("pkg.v1.0.0");
    assertThat(d.moves()).isFalse();
  }

  @Test
  void withNothingAtOrBelowMaxVersionTheRollbackIsReportedAndHeld() {
    Decision d =
        SubscriptionDecider.decide(BACK, AT_1_1, STAY_1_1, null, null, ALLOW, Rollback.NO_TARGET);
    assertThat(d.action()).isEqualTo(Decision.Action.DOWNGRADE_REFUSED);
    assertThat(d.reason()).isEqualTo(SubscriptionStatus.DOWNGRADE_TARGET_MISSING);
    assertThat(d.message()).contains("above maxVersion 1.0.0").contains("keeping pkg.v1.1.0");
    assertThat(d.bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(d.held()).isNull();
  }

  @Test
  void manualApprovalGatesTheDowngradeTargetLikeAnUpgrade() {
    SubscriptionToReconcile manual = BACK.withApproval(SubscriptionToReconcile.Approval.MANUAL);
    Rollback back = Rollback.to(bundle("1.0.0"), null);
    Decision none =
        SubscriptionDecider.decide(manual, AT_1_1, STAY_1_1, null, "pkg.v1.1.0", ALLOW, back);
    Decision exact =
        SubscriptionDecider.decide(manual, AT_1_1, STAY_1_1, null, "pkg.v1.0.0", ALLOW, back);
    assertThat(none.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(none.held().name()).isEqualTo("pkg.v1.0.0");
    assertThat(exact.action()).isEqualTo(Decision.Action.DOWNGRADE);
  }

  @Test
  void notUpgradeableBlocksADowngradeToo() {
    Decision d =
        SubscriptionDecider.decide(
            BACK,
            AT_1_1,
            STAY_1_1,
            null,
            null,
            UpgradeDecision.block("migrating"),
            Rollback.to(bundle("1.0.0"), null));
    assertThat(d.action()).isEqualTo(Decision.Action.BLOCKED);
    assertThat(d.reason()).isEqualTo("OperatorConditionNotUpgradeable");
    assertThat(d.held().name()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void aStartedDowngradeIsFinishedWithoutAskingForApprovalAgain() {
    ObservedSubscription started =
        cluster(observed("1.1.0", CsvPhase.SUCCEEDED), observed("1.0.0", CsvPhase.INSTALLING));
    Decision d =
        SubscriptionDecider.decide(
            BACK.withApproval(SubscriptionToReconcile.Approval.MANUAL),
            started,
            STAY_1_1,
            null,
            null,
            UpgradeDecision.block("migrating"),
            Rollback.to(bundle("1.0.0"), null));
    assertThat(d.action()).isEqualTo(Decision.Action.DOWNGRADE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(d.replaces()).isEqualTo("pkg.v1.1.0");
  }

  @Test
  void anUpgradeInProgressAboveMaxVersionIsAbandonedForTheInstalledBundle() {
    ObservedSubscription failing =
        cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.FAILED));
    Decision d =
        SubscriptionDecider.decide(
            BACK,
            failing,
            Optional.of(bundle("1.1.0")),
            null,
            null,
            ALLOW,
            Rollback.to(bundle("1.0.0"), null));
    assertThat(d.action()).isEqualTo(Decision.Action.STEADY);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void aFirstInstallAboveMaxVersionIsReplacedByTheTarget() {
    Decision d =
        SubscriptionDecider.decide(
            BACK,
            cluster(observed("1.1.0", CsvPhase.INSTALLING)),
            STAY_1_1,
            null,
            null,
            ALLOW,
            Rollback.to(bundle("1.0.0"), null));
    assertThat(d.action()).isEqualTo(Decision.Action.DOWNGRADE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(d.replaces()).isNull();
  }

  @Test
  void aRollbackWithoutItsCatalogIsUnresolvedAndKeepsTheInstalledBundle() {
    Decision d =
        SubscriptionDecider.decide(
            BACK, AT_1_1, Optional.empty(), "catalog cat is not available yet", null, ALLOW, null);
    assertThat(d.action()).isEqualTo(Decision.Action.UNRESOLVED);
    assertThat(d.bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(d.message()).isEqualTo("catalog cat is not available yet");
  }
}
