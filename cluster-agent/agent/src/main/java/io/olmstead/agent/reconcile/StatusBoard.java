package io.olmstead.agent.reconcile;

import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.lifecycle.CsvObservation;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvPhaseRules;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds the reported status of a subscription from a pass's decision and outcome, and forwards it
 * to the {@link StatusSink} only when it changed (passes repeat; reports should not).
 */
final class StatusBoard {
  static final String DRIFT_CONDITION = "DriftRestored";
  static final String RESOLUTION_CONDITION = "ResolutionFailed";

  /**
   * OLM's condition type on an operator that refuses upgrades; the control plane's rollouts read
   * it.
   */
  static final String UPGRADEABLE_CONDITION = "Upgradeable";

  private final StatusSink sink;
  private final Map<String, SubscriptionStatus> last = new ConcurrentHashMap<>();

  StatusBoard(StatusSink sink) {
    this.sink = sink;
  }

  void publish(SubscriptionStatus status) {
    SubscriptionStatus previous = last.put(status.name(), status);
    if (!status.equals(previous)) {
      sink.publish(status);
    }
  }

  void removed(String subscription) {
    last.remove(subscription);
    sink.removed(subscription);
  }

  /** The latest status of every subscription reported. */
  Map<String, SubscriptionStatus> snapshot() {
    return Map.copyOf(last);
  }

  Optional<SubscriptionStatus> get(String subscription) {
    return Optional.ofNullable(last.get(subscription));
  }

  /** {@code status} with {@code extra} added to its conditions (when present). */
  static SubscriptionStatus withCondition(
      SubscriptionStatus status, Optional<SubscriptionStatus.StatusCondition> extra) {
    if (extra.isEmpty()) {
      return status;
    }
    List<SubscriptionStatus.StatusCondition> conditions = new ArrayList<>(status.conditions());
    conditions.add(extra.get());
    return new SubscriptionStatus(
        status.name(),
        status.namespace(),
        status.installedBundle(),
        status.installedVersion(),
        status.targetBundle(),
        status.targetVersion(),
        status.phase(),
        status.reason(),
        status.message(),
        conditions,
        status.observedGeneration(),
        status.csv());
  }

  /**
   * The status for {@code sub}: {@code installed} is the bundle running, {@code heading} the one
   * being installed (null when none), {@code driven} olm-core's phase for the bundle driven this
   * pass.
   */
  static SubscriptionStatus status(
      SubscriptionToReconcile sub,
      ObservedBundle installed,
      Bundle heading,
      CsvStatus driven,
      Decision decision,
      List<ApplyOutcome> restored) {
    List<SubscriptionStatus.StatusCondition> conditions = new ArrayList<>();
    List<String> written =
        restored.stream().filter(ApplyOutcome::changed).map(ApplyOutcome::ref).toList();
    List<String> held = restored.stream().filter(o -> !o.changed()).map(ApplyOutcome::ref).toList();
    if (!written.isEmpty()) {
      conditions.add(
          new SubscriptionStatus.StatusCondition(
              DRIFT_CONDITION,
              "True",
              "ObjectsRestored",
              "restored " + String.join(", ", written)));
    } else if (!held.isEmpty()) {
      conditions.add(
          new SubscriptionStatus.StatusCondition(
              DRIFT_CONDITION,
              "False",
              "RestoreBackoff",
              "changed again soon after being restored; restoring after a backoff: "
                  + String.join(", ", held)));
    }
    String targetBundle =
        heading != null ? heading.name() : installed != null ? installed.bundle() : null;
    String targetVersion =
        heading != null ? heading.versionText() : installed != null ? installed.version() : null;
    CsvStatus shown = driven;
    switch (decision.action()) {
      case AWAIT_APPROVAL -> {
        targetBundle = decision.held().name();
        targetVersion = decision.held().versionText();
        return build(
            sub,
            installed,
            targetBundle,
            targetVersion,
            SubscriptionStatus.REQUIRES_APPROVAL,
            SubscriptionStatus.REQUIRES_APPROVAL,
            decision.message(),
            conditions);
      }
      case BLOCKED -> {
        targetBundle = decision.held().name();
        targetVersion = decision.held().versionText();
        shown =
            CsvPhaseRules.next(
                CsvObservation.in(CsvPhase.NONE)
                    .withUpgrade(
                        new UpgradeDecision(false, decision.reason(), decision.message())));
        if (UpgradeDecision.NOT_UPGRADEABLE_REASON.equals(decision.reason())) {
          conditions.add(
              new SubscriptionStatus.StatusCondition(
                  UPGRADEABLE_CONDITION, "False", decision.reason(), decision.message()));
        }
      }
      case DOWNGRADE_REFUSED -> {
        // Failed describes the rollback, not the operator: the installed bundle keeps running as it
        // was.
        if (decision.held() != null) {
          targetBundle = decision.held().name();
          targetVersion = decision.held().versionText();
        }
        return build(
            sub,
            installed,
            targetBundle,
            targetVersion,
            CsvPhase.FAILED.wireName(),
            decision.reason(),
            decision.message(),
            conditions);
      }
      case UNRESOLVED -> {
        if (installed != null
            || SubscriptionStatus.CONSTRAINTS_NOT_SATISFIABLE.equals(decision.reason())) {
          conditions.add(
              new SubscriptionStatus.StatusCondition(
                  RESOLUTION_CONDITION, "True", decision.reason(), decision.message()));
        }
      }
      default -> {}
    }
    return build(
        sub,
        installed,
        targetBundle,
        targetVersion,
        shown.phase().wireName(),
        shown.reason() == null ? null : shown.reason().wireName(),
        shown.message(),
        conditions);
  }

  /**
   * {@code Failed/OwnershipConflict}: the bundle would write an object another subscription of the
   * cluster owns (two subscriptions for one operator in one namespace); nothing is written until
   * that owner goes.
   */
  static SubscriptionStatus conflict(
      SubscriptionToReconcile sub, ObservedBundle installed, Bundle target, String message) {
    return build(
        sub,
        installed,
        target == null ? null : target.name(),
        target == null ? null : target.versionText(),
        CsvPhase.FAILED.wireName(),
        SubscriptionStatus.OWNERSHIP_CONFLICT,
        message,
        List.of());
  }

  /**
   * {@code Failed/ManagedByOLM}: OLM manages the package in that namespace; the agent touches
   * nothing of it.
   */
  static SubscriptionStatus managedByOlm(SubscriptionToReconcile sub, String message) {
    return build(
        sub,
        null,
        null,
        null,
        CsvPhase.FAILED.wireName(),
        SubscriptionStatus.MANAGED_BY_OLM,
        message,
        List.of());
  }

  private static SubscriptionStatus build(
      SubscriptionToReconcile sub,
      ObservedBundle installed,
      String targetBundle,
      String targetVersion,
      String phase,
      String reason,
      String message,
      List<SubscriptionStatus.StatusCondition> conditions) {
    return new SubscriptionStatus(
        sub.name(),
        sub.namespace(),
        installed == null ? null : installed.bundle(),
        installed == null ? null : installed.version(),
        targetBundle,
        targetVersion,
        phase,
        reason,
        message,
        conditions,
        sub.generation());
  }
}
