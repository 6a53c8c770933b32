package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import java.util.Optional;

/**
 * The pure step decision for one subscription, from what is desired, what the cluster holds, what
 * olm-core's resolver chose, the approvals received and olm-core's Upgradeable verdict on the
 * installed operator. One edge at a time: an upgrade that already started is finished before the
 * next is considered, unless it is above maxVersion (then it is rolled back, see {@link Rollback})
 * or it failed and the resolver offers another bundle.
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
   * @param rollback where a rollback below maxVersion would go and whether the CRDs allow it; null
   *     when none was worked out (nothing above maxVersion, or the catalog is not loaded)
   */
  public static Decision decide(
      SubscriptionToReconcile desired,
      ObservedSubscription observed,
      Optional<Bundle> candidate,
      String resolutionError,
      String approvedBundle,
      UpgradeDecision upgradeable,
      Rollback rollback) {
    Optional<ObservedBundle> installed = observed.installed();
    Optional<ObservedBundle> inProgress = observed.inProgress();
    String installedName = installed.map(ObservedBundle::bundle).orElse(null);
    Optional<ObservedBundle> aboveCeiling = Rollback.aboveCeiling(desired, observed);
    if (inProgress.isPresent()
        && aboveCeiling.isEmpty()
        && !superseded(inProgress.get(), candidate, resolutionError)) {
      return Decision.drive(Decision.Action.CONTINUE, inProgress.get().bundle(), installedName);
    }
    // blocked: no version the policy allows; a reason with a maxVersion is a hold (the control
    // plane's maturity
    // policy keeps the subscription at that version), which installs and upgrades up to it as usual
    if (desired.blockedReason() != null
        && !desired.blockedReason().isBlank()
        && desired.maxVersion() == null) {
      return installed.isPresent()
          ? Decision.drive(Decision.Action.STEADY, installedName, null)
          : Decision.hold(
              Decision.Action.UNRESOLVED,
              null,
              null,
              CsvReason.REQUIREMENTS_NOT_MET.wireName(),
              desired.blockedReason());
    }
    if (aboveCeiling.isPresent()) {
      return rollBack(
          desired,
          observed,
          aboveCeiling.get(),
          resolutionError,
          approvedBundle,
          upgradeable,
          rollback);
    }
    if (resolutionError != null) {
      // the solver's verdict is OLM's ConstraintsNotSatisfiable; a catalog not loaded yet is a
      // requirement not met
      String reason =
          resolutionError.startsWith("constraints not satisfiable")
              ? SubscriptionStatus.CONSTRAINTS_NOT_SATISFIABLE
              : CsvReason.REQUIREMENTS_NOT_MET.wireName();
      return Decision.hold(
          Decision.Action.UNRESOLVED, installedName, null, reason, resolutionError);
    }
    if (candidate.isEmpty() || candidate.get().name().equals(installedName)) {
      return installed.isPresent()
          ? Decision.drive(Decision.Action.STEADY, installedName, null)
          : Decision.hold(
              Decision.Action.UNRESOLVED,
              null,
              null,
              CsvReason.REQUIREMENTS_NOT_MET.wireName(),
              "no bundle of package "
                  + desired.packageName()
                  + " in channel "
                  + desired.channel()
                  + (desired.maxVersion() == null ? "" : " at or below " + desired.maxVersion()));
    }
    Bundle next = candidate.get();
    if (desired.approval() == SubscriptionToReconcile.Approval.MANUAL
        && !next.name().equals(approvedBundle)) {
      return Decision.hold(
          Decision.Action.AWAIT_APPROVAL,
          installedName,
          next,
          SubscriptionStatus.REQUIRES_APPROVAL,
          "approval required to install " + next.name());
    }
    if (installed.isPresent() && !upgradeable.allowed()) {
      return Decision.hold(
          Decision.Action.BLOCKED,
          installedName,
          next,
          upgradeable.reason(),
          upgradeable.message());
    }
    return installed.isPresent()
        ? Decision.drive(Decision.Action.UPGRADE, next.name(), installedName)
        : Decision.drive(Decision.Action.INSTALL, next.name(), null);
  }

  /**
   * A failed attempt does not hold the subscription once the resolver offers another bundle (a
   * successor of the failed one, reachable because maxVersion moved): OLM replaces a Failed CSV the
   * same way, and finishing the failed attempt first would keep reporting it as the target while
   * the control plane waits for the new one.
   */
  private static boolean superseded(
      ObservedBundle attempt, Optional<Bundle> candidate, String resolutionError) {
    return attempt.phase() == CsvPhase.FAILED
        && resolutionError == null
        && candidate.isPresent()
        && !candidate.get().name().equals(attempt.bundle());
  }

  /**
   * The step for a subscription whose bundle is above maxVersion, gated like an upgrade: olm-core's
   * CRD rules first (a refusal needs a person, not a retry), then Manual approval of exactly the
   * older bundle, then Upgradeable. Approval and Upgradeable are asked once: a rollback that
   * already started is finished, like an upgrade.
   */
  private static Decision rollBack(
      SubscriptionToReconcile desired,
      ObservedSubscription observed,
      ObservedBundle above,
      String resolutionError,
      String approvedBundle,
      UpgradeDecision upgradeable,
      Rollback rollback) {
    Optional<ObservedBundle> installed = observed.installed();
    String installedName = installed.map(ObservedBundle::bundle).orElse(null);
    if (rollback == null) {
      return Decision.hold(
          Decision.Action.UNRESOLVED,
          installedName,
          null,
          CsvReason.REQUIREMENTS_NOT_MET.wireName(),
          resolutionError != null
              ? resolutionError
              : "catalog " + desired.catalog() + " is not available yet");
    }
    if (rollback.target() == null) {
      return Decision.hold(
          Decision.Action.DOWNGRADE_REFUSED,
          installedName,
          null,
          SubscriptionStatus.DOWNGRADE_TARGET_MISSING,
          above.bundle()
              + " is above maxVersion "
              + desired.maxVersion()
              + " and "
              + (desired.channel() == null || desired.channel().isEmpty()
                  ? "the default channel"
                  : "channel " + desired.channel())
              + " of package "
              + desired.packageName()
              + " has no bundle at or below it: keeping "
              + (installedName == null ? "nothing" : installedName));
    }
    Bundle target = rollback.target();
    if (target.name().equals(installedName)) {
      // What is above maxVersion is an unfinished upgrade: keep the installed bundle; its next
      // drive removes the rest.
      return Decision.drive(Decision.Action.STEADY, installedName, null);
    }
    if (rollback.crdProblem() != null) {
      return Decision.hold(
          Decision.Action.DOWNGRADE_REFUSED,
          installedName,
          target,
          SubscriptionStatus.DOWNGRADE_REFUSED,
          "downgrade to " + target.name() + " refused: " + rollback.crdProblem());
    }
    boolean started = observed.bundles().stream().anyMatch(b -> b.bundle().equals(target.name()));
    if (!started
        && desired.approval() == SubscriptionToReconcile.Approval.MANUAL
        && !target.name().equals(approvedBundle)) {
      return Decision.hold(
          Decision.Action.AWAIT_APPROVAL,
          installedName,
          target,
          SubscriptionStatus.REQUIRES_APPROVAL,
          "approval required to install " + target.name());
    }
    if (!started && installed.isPresent() && !upgradeable.allowed()) {
      return Decision.hold(
          Decision.Action.BLOCKED,
          installedName,
          target,
          upgradeable.reason(),
          upgradeable.message());
    }
    return Decision.drive(Decision.Action.DOWNGRADE, target.name(), installedName);
  }
}
