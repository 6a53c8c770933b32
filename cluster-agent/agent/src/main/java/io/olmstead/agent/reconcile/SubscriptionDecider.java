package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import java.util.Optional;

/**
 * The pure step decision for one subscription, from what is desired, what the cluster holds, what olm-core's
 * resolver chose, the approvals received and olm-core's Upgradeable verdict on the installed operator.
 * One edge at a time: an upgrade that already started is finished before the next is considered.
 */
public final class SubscriptionDecider {
  private SubscriptionDecider() {}

  /**
   * Decides the step.
   *
   * @param desired the subscription (for approval mode and the control plane's block)
   * @param observed what the cluster holds for it
   * @param candidate the bundle olm-core's resolver chose to install next, empty when none (stay)
   * @param resolutionError why nothing could be resolved, or null
   * @param approvedBundle the bundle the control plane approved for this subscription, or null
   * @param upgradeable olm-core's verdict on the installed bundle's OperatorCondition
   */
  public static Decision decide(DesiredSubscription desired, ObservedSubscription observed, Optional<Bundle> candidate,
                                String resolutionError, String approvedBundle, UpgradeDecision upgradeable) {
    Optional<ObservedBundle> installed = observed.installed();
    Optional<ObservedBundle> inProgress = observed.inProgress();
    String installedName = installed.map(ObservedBundle::bundle).orElse(null);
    if (inProgress.isPresent()) {
      return Decision.drive(Decision.Action.CONTINUE, inProgress.get().bundle(), installedName);
    }
    if (desired.blockedReason() != null && !desired.blockedReason().isBlank()) {
      return installed.isPresent() ? Decision.drive(Decision.Action.STEADY, installedName, null)
          : Decision.hold(Decision.Action.UNRESOLVED, null, null, CsvReason.REQUIREMENTS_NOT_MET.wireName(),
              desired.blockedReason());
    }
    if (resolutionError != null) {
      return Decision.hold(Decision.Action.UNRESOLVED, installedName, null, CsvReason.REQUIREMENTS_NOT_MET.wireName(),
          resolutionError);
    }
    if (candidate.isEmpty() || candidate.get().name().equals(installedName)) {
      return installed.isPresent() ? Decision.drive(Decision.Action.STEADY, installedName, null)
          : Decision.hold(Decision.Action.UNRESOLVED, null, null, CsvReason.REQUIREMENTS_NOT_MET.wireName(),
              "no bundle of package " + desired.packageName() + " in channel " + desired.channel()
                  + (desired.maxVersion() == null ? "" : " at or below " + desired.maxVersion()));
    }
    Bundle next = candidate.get();
    if (desired.approval() == DesiredSubscription.Approval.MANUAL && !next.name().equals(approvedBundle)) {
      return Decision.hold(Decision.Action.AWAIT_APPROVAL, installedName, next, SubscriptionStatus.REQUIRES_APPROVAL,
          "approval required to install " + next.name());
    }
    if (installed.isPresent() && !upgradeable.allowed()) {
      return Decision.hold(Decision.Action.BLOCKED, installedName, next, upgradeable.reason(), upgradeable.message());
    }
    return installed.isPresent() ? Decision.drive(Decision.Action.UPGRADE, next.name(), installedName)
        : Decision.drive(Decision.Action.INSTALL, next.name(), null);
  }
}
