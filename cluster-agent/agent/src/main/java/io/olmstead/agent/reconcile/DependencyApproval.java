package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;
import java.util.Optional;

/**
 * The Manual gate of a dependency: the pure decision whether an implied dependency subscription may
 * take its step. In OLM a Manual InstallPlan covers the whole resolution, the operator and the
 * dependencies it pulls in, and nothing of it is applied before approval. Here the dependency (an
 * Automatic implied subscription) therefore waits while the Manual subscription that requires it
 * waits for approval of its own next bundle; approving that bundle approves the plan including its
 * dependencies.
 */
final class DependencyApproval {
  private DependencyApproval() {}

  /**
   * The dependency's decision, held when the subscription needing it still waits for approval.
   *
   * @param decision what {@link SubscriptionDecider} decided for the dependency on its own
   * @param dependencyNext the bundle that decision would install
   * @param parent the subscription that requires the dependency, or null when unknown
   * @param parentObserved what the cluster holds for the parent
   * @param parentNext the bundle the resolver chose for the parent, empty when none
   * @param parentApproved the bundle approved for the parent, or null
   */
  static Decision gate(
      Decision decision,
      Bundle dependencyNext,
      SubscriptionToReconcile parent,
      ObservedSubscription parentObserved,
      Optional<Bundle> parentNext,
      String parentApproved) {
    boolean starts =
        decision.action() == Decision.Action.INSTALL
            || decision.action() == Decision.Action.UPGRADE;
    if (!starts
        || dependencyNext == null
        || parent == null
        || parent.approval() != SubscriptionToReconcile.Approval.MANUAL
        || parentNext.isEmpty()) {
      return decision;
    }
    String next = parentNext.get().name();
    boolean parentThere = parentObserved.bundles().stream().anyMatch(b -> b.bundle().equals(next));
    if (parentThere || next.equals(parentApproved)) {
      return decision; // the parent's step is approved (or was, and started): its plan includes
      // this dependency
    }
    return Decision.hold(
        Decision.Action.AWAIT_APPROVAL,
        decision.replaces(),
        dependencyNext,
        SubscriptionStatus.REQUIRES_APPROVAL,
        "waiting for approval of "
            + next
            + " on subscription "
            + parent.name()
            + ", which requires "
            + dependencyNext.name()
            + ": approving it approves this dependency");
  }
}
