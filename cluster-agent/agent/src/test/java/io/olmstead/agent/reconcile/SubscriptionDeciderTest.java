package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Property;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every step decision, without an API server. */
class SubscriptionDeciderTest {
  private static final UpgradeDecision ALLOW = UpgradeDecision.allow();
  private static final DesiredSubscription AUTO = DesiredSubscription.of("s", "cat", "pkg", "stable", "ns", null);
  private static final DesiredSubscription MANUAL = AUTO.withApproval(DesiredSubscription.Approval.MANUAL);

  static Bundle bundle(String version) {
    ObjectNode value = new ObjectMapper().createObjectNode().put("packageName", "pkg").put("version", version);
    return new Bundle("pkg", "pkg.v" + version, "img", List.of(new Property("olm.package", value)), List.of());
  }

  static ObservedBundle observed(String version, CsvPhase phase) {
    return new ObservedBundle("s", "pkg.v" + version, phase, "pkg", "cat", "stable", version, null, false, List.of(), List.of(), null);
  }

  static ObservedSubscription cluster(ObservedBundle... bundles) {
    return new ObservedSubscription("s", List.of(bundles));
  }

  @Test
  void installsTheResolvedBundleWhenNothingIsInstalled() {
    Decision d = SubscriptionDecider.decide(AUTO, cluster(), Optional.of(bundle("1.0.0")), null, null, ALLOW);
    assertThat(d.action()).isEqualTo(Decision.Action.INSTALL);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void upgradesFromTheInstalledBundle() {
    Decision d = SubscriptionDecider.decide(AUTO, cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
        Optional.of(bundle("1.1.0")), null, null, ALLOW);
    assertThat(d.action()).isEqualTo(Decision.Action.UPGRADE);
    assertThat(d.replaces()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void finishesAStartedUpgradeBeforeConsideringTheNextEdge() {
    Decision d = SubscriptionDecider.decide(AUTO,
        cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.INSTALLING)),
        Optional.of(bundle("1.2.0")), null, null, UpgradeDecision.block("no"));
    assertThat(d.action()).isEqualTo(Decision.Action.CONTINUE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(d.replaces()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void staysWhenTheResolverChoseNothingNew() {
    Decision d = SubscriptionDecider.decide(AUTO, cluster(observed("1.0.0", CsvPhase.SUCCEEDED)), Optional.empty(),
        null, null, ALLOW);
    assertThat(d.action()).isEqualTo(Decision.Action.STEADY);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void manualApprovalHoldsUntilExactlyThatBundleIsApproved() {
    Optional<Bundle> next = Optional.of(bundle("1.1.0"));
    ObservedSubscription installed = cluster(observed("1.0.0", CsvPhase.SUCCEEDED));
    Decision none = SubscriptionDecider.decide(MANUAL, installed, next, null, null, ALLOW);
    Decision other = SubscriptionDecider.decide(MANUAL, installed, next, null, "pkg.v1.2.0", ALLOW);
    Decision exact = SubscriptionDecider.decide(MANUAL, installed, next, null, "pkg.v1.1.0", ALLOW);
    assertThat(none.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(none.held().name()).isEqualTo("pkg.v1.1.0");
    assertThat(none.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(other.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(exact.action()).isEqualTo(Decision.Action.UPGRADE);
  }

  @Test
  void manualApprovalAlsoGatesTheFirstInstall() {
    Decision d = SubscriptionDecider.decide(MANUAL, cluster(), Optional.of(bundle("1.0.0")), null, null, ALLOW);
    assertThat(d.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(d.bundle()).isNull();
  }

  @Test
  void notUpgradeableBlocksWithTheOlmReason() {
    Decision d = SubscriptionDecider.decide(AUTO, cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
        Optional.of(bundle("1.1.0")), null, null, UpgradeDecision.block("migrating"));
    assertThat(d.action()).isEqualTo(Decision.Action.BLOCKED);
    assertThat(d.reason()).isEqualTo("OperatorConditionNotUpgradeable");
    assertThat(d.message()).isEqualTo("operator is not upgradeable: migrating");
    assertThat(d.held().name()).isEqualTo("pkg.v1.1.0");
  }

  @Test
  void resolutionFailureIsUnresolvedButKeepsTheInstalledBundle() {
    Decision d = SubscriptionDecider.decide(AUTO, cluster(observed("1.0.0", CsvPhase.SUCCEEDED)), Optional.empty(),
        "constraints not satisfiable: x", null, ALLOW);
    assertThat(d.action()).isEqualTo(Decision.Action.UNRESOLVED);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
    assertThat(d.message()).startsWith("constraints not satisfiable");
  }

  @Test
  void aControlPlaneBlockKeepsWhatIsInstalled() {
    DesiredSubscription blocked = new DesiredSubscription("s", "cat", null, "pkg", "stable", "ns", List.of(), null, null,
        null, null, false, 1, "no version matches the policy");
    Decision installed = SubscriptionDecider.decide(blocked, cluster(observed("1.0.0", CsvPhase.SUCCEEDED)),
        Optional.of(bundle("1.1.0")), null, null, ALLOW);
    Decision nothing = SubscriptionDecider.decide(blocked, cluster(), Optional.of(bundle("1.1.0")), null, null, ALLOW);
    assertThat(installed.action()).isEqualTo(Decision.Action.STEADY);
    assertThat(nothing.action()).isEqualTo(Decision.Action.UNRESOLVED);
    assertThat(nothing.message()).isEqualTo("no version matches the policy");
  }

  @Test
  void aFailedInstallIsRetriedRatherThanSkipped() {
    Decision d = SubscriptionDecider.decide(AUTO, cluster(observed("1.0.0", CsvPhase.FAILED)), Optional.of(bundle("1.1.0")),
        null, null, ALLOW);
    assertThat(d.action()).isEqualTo(Decision.Action.CONTINUE);
    assertThat(d.bundle()).isEqualTo("pkg.v1.0.0");
  }

  @Test
  void theNewestSucceededBundleIsTheInstalledOne() {
    ObservedSubscription both = cluster(observed("1.0.0", CsvPhase.SUCCEEDED), observed("1.1.0", CsvPhase.SUCCEEDED));
    assertThat(both.installed().orElseThrow().bundle()).isEqualTo("pkg.v1.1.0");
    assertThat(both.inProgress()).isEmpty();
  }
}
