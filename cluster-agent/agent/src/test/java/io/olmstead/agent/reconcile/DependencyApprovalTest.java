package io.olmstead.agent.reconcile;

import static io.olmstead.agent.reconcile.SubscriptionDeciderTest.bundle;
import static io.olmstead.agent.reconcile.SubscriptionDeciderTest.cluster;
import static io.olmstead.agent.reconcile.SubscriptionDeciderTest.observed;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DependencyApprovalTest {
  private static final SubscriptionToReconcile AUTO =
      SubscriptionToReconcile.of("app", "cat", "pkg", "stable", "ns", null);
  private static final SubscriptionToReconcile MANUAL =
      AUTO.withApproval(SubscriptionToReconcile.Approval.MANUAL);
  private static final Bundle DEP = bundle("1.0.0");
  private static final Optional<Bundle> PARENT_NEXT = Optional.of(bundle("2.0.0"));
  private static final Decision INSTALL_DEP =
      Decision.drive(Decision.Action.INSTALL, DEP.name(), null);

  @Test
  void aManualParentsUnapprovedBundleHoldsItsDependencyNamingTheBundleToApprove() {
    Decision d = DependencyApproval.gate(INSTALL_DEP, DEP, MANUAL, cluster(), PARENT_NEXT, null);
    assertThat(d.action()).isEqualTo(Decision.Action.AWAIT_APPROVAL);
    assertThat(d.held()).isEqualTo(DEP);
    assertThat(d.reason()).isEqualTo(SubscriptionStatus.REQUIRES_APPROVAL);
    assertThat(d.message()).contains("approval of pkg.v2.0.0 on subscription app");
    assertThat(d.moves()).isFalse();
  }

  @Test
  void approvingTheParentsBundleApprovesItsDependency() {
    assertThat(
            DependencyApproval.gate(INSTALL_DEP, DEP, MANUAL, cluster(), PARENT_NEXT, "pkg.v2.0.0"))
        .isEqualTo(INSTALL_DEP);
    assertThat(
            DependencyApproval.gate(INSTALL_DEP, DEP, MANUAL, cluster(), PARENT_NEXT, "pkg.v1.9.0")
                .action())
        .isEqualTo(Decision.Action.AWAIT_APPROVAL);
  }

  @Test
  void anAutomaticParentOrAParentAlreadyAtItsBundleDoesNotHoldTheDependency() {
    assertThat(DependencyApproval.gate(INSTALL_DEP, DEP, AUTO, cluster(), PARENT_NEXT, null))
        .isEqualTo(INSTALL_DEP);
    assertThat(
            DependencyApproval.gate(
                INSTALL_DEP,
                DEP,
                MANUAL,
                cluster(observed("2.0.0", CsvPhase.SUCCEEDED)),
                PARENT_NEXT,
                null))
        .isEqualTo(INSTALL_DEP);
    assertThat(DependencyApproval.gate(INSTALL_DEP, DEP, MANUAL, cluster(), Optional.empty(), null))
        .isEqualTo(INSTALL_DEP);
  }

  @Test
  void aDependencyStepThatAlreadyStartedIsFinished() {
    Decision going = Decision.drive(Decision.Action.CONTINUE, DEP.name(), null);
    assertThat(DependencyApproval.gate(going, DEP, MANUAL, cluster(), PARENT_NEXT, null))
        .isEqualTo(going);
  }
}
