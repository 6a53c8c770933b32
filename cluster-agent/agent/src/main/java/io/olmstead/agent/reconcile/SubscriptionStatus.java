package io.olmstead.agent.reconcile;

import java.util.List;
import java.util.Optional;

/**
 * What the agent reports for one subscription: the bundle running, the one it is moving to, and the
 * phase with OLM's reason ({@code Pending/OperatorConditionNotUpgradeable}, {@code
 * Failed/InstallCheckFailed}, ...). The phase {@code RequiresApproval} carries the bundle awaiting
 * approval in {@link #targetBundle()}; {@link #csv()} the requirement status, webhooks and
 * certificates of the bundle driven.
 */
public record SubscriptionStatus(
    String name,
    String namespace,
    String installedBundle,
    String installedVersion,
    String targetBundle,
    String targetVersion,
    String phase,
    String reason,
    String message,
    List<StatusCondition> conditions,
    long observedGeneration,
    CsvDetails csv) {

  /** A status without CSV details. */
  public SubscriptionStatus(
      String name,
      String namespace,
      String installedBundle,
      String installedVersion,
      String targetBundle,
      String targetVersion,
      String phase,
      String reason,
      String message,
      List<StatusCondition> conditions,
      long observedGeneration) {
    this(
        name,
        namespace,
        installedBundle,
        installedVersion,
        targetBundle,
        targetVersion,
        phase,
        reason,
        message,
        conditions,
        observedGeneration,
        CsvDetails.NONE);
  }

  public static final String REQUIRES_APPROVAL = "RequiresApproval";

  /**
   * OLM's reason on the {@code ResolutionFailed} condition when the solver finds no solution (its
   * message says why).
   */
  public static final String CONSTRAINTS_NOT_SATISFIABLE = "ConstraintsNotSatisfiable";

  /**
   * Reason (phase {@code Failed}) when a rollback below the installed version is refused by
   * olm-core's CRD safety rules; the installed bundle keeps running and the message carries the
   * rules' wording.
   */
  public static final String DOWNGRADE_REFUSED = "DowngradeRefused";

  /**
   * Reason (phase {@code Failed}) when the installed bundle is above maxVersion and the channel has
   * none at or below.
   */
  public static final String DOWNGRADE_TARGET_MISSING = "DowngradeTargetMissing";

  /**
   * Reason (phase {@code Failed}) when the bundle would write an object that another subscription
   * of the cluster owns; the message names the object and the owner.
   */
  public static final String OWNERSHIP_CONFLICT = "OwnershipConflict";

  /**
   * OLM already manages the package in that namespace (a CSV or an OLM Subscription of it): left to
   * OLM.
   */
  public static final String MANAGED_BY_OLM = "ManagedByOLM";

  public SubscriptionStatus {
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    csv = csv == null ? CsvDetails.NONE : csv;
  }

  /** A Kubernetes-style condition attached to a status. */
  public record StatusCondition(String type, String status, String reason, String message) {}

  /** This status with {@code details}. */
  public SubscriptionStatus withCsv(CsvDetails details) {
    return new SubscriptionStatus(
        name,
        namespace,
        installedBundle,
        installedVersion,
        targetBundle,
        targetVersion,
        phase,
        reason,
        message,
        conditions,
        observedGeneration,
        details);
  }

  /** The condition of {@code type}, if reported. */
  public Optional<StatusCondition> condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst();
  }
}
