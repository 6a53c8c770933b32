package io.olmstead.olmcore.lifecycle;

/**
 * OLM's CSV phase rules (OLM-SEMANTICS §5) as one pure function from what the agent observed to the
 * phase, reason and message the CSV should show next.
 *
 * <p>Order of precedence: being replaced ({@code Replacing}, then {@code Deleting} once the newer
 * CSV succeeded) beats everything; then configuration errors that no retry fixes ({@code
 * UnsupportedOperatorGroup}, {@code InvalidInstallModes}, {@code InvalidInstallStrategy}); then the
 * phase-specific rules:
 *
 * <ul>
 *   <li>before success: unmet requirements and (only before install starts) a blocking Upgradeable
 *       keep it {@code Pending}; an API rejection fails it; unapplied objects make it {@code
 *       InstallReady}; a deployment past its progress deadline fails it ({@code
 *       InstallCheckFailed}, OLM's reason for install timeouts); a deployment still rolling out
 *       keeps it {@code Installing/InstallWaiting}; else {@code Succeeded};
 *   <li>after success: lost requirements fail it; missing or changed objects send it back to {@code
 *       InstallReady/NeedsReinstall}; an unavailable deployment fails it ({@code
 *       ComponentUnhealthy});
 *   <li>after failure: missing objects restart it ({@code Pending/NeedsReinstall}); deployments
 *       that recover bring it to {@code Installing} or {@code Succeeded}.
 * </ul>
 */
public final class CsvPhaseRules {

  private CsvPhaseRules() {}

  /** The status the CSV should have given {@code o}. */
  public static CsvStatus next(CsvObservation o) {
    if (o == null) {
      return status(
          CsvPhase.PENDING, CsvReason.REQUIREMENTS_UNKNOWN, "requirements not yet checked");
    }
    if (o.replacedBy() != null) {
      return o.replacementSucceeded()
          ? status(
              CsvPhase.DELETING,
              CsvReason.REPLACED,
              "has been replaced by a newer ClusterServiceVersion that has successfully installed.")
          : status(
              CsvPhase.REPLACING,
              CsvReason.BEING_REPLACED,
              "being replaced by csv: " + o.replacedBy());
    }
    if (o.unsupportedOperatorGroup() != null) {
      return status(
          CsvPhase.FAILED, CsvReason.UNSUPPORTED_OPERATOR_GROUP, o.unsupportedOperatorGroup());
    }
    if (o.invalidInstallModes() != null) {
      return status(CsvPhase.FAILED, CsvReason.INVALID_INSTALL_MODES, o.invalidInstallModes());
    }
    if (o.invalidInstallStrategy() != null) {
      return status(CsvPhase.FAILED, CsvReason.INVALID_STRATEGY, o.invalidInstallStrategy());
    }
    switch (o.currentPhase()) {
      case SUCCEEDED:
      case REPLACING: // the replacing CSV went away: back to checking our own health
      case DELETING:
        return afterSuccess(o);
      case FAILED:
        return afterFailure(o);
      default:
        return install(o);
    }
  }

  private static CsvStatus install(CsvObservation o) {
    if (o.unmetRequirements() != null) {
      return status(
          CsvPhase.PENDING,
          CsvReason.REQUIREMENTS_NOT_MET,
          withDetail("one or more requirements couldn't be found", o.unmetRequirements()));
    }
    boolean notStarted = o.currentPhase() == CsvPhase.NONE || o.currentPhase() == CsvPhase.PENDING;
    if (notStarted && !o.upgrade().allowed()) {
      return status(
          CsvPhase.PENDING, CsvReason.OPERATOR_CONDITION_NOT_UPGRADEABLE, o.upgrade().message());
    }
    if (o.apiRejection() != null) {
      return componentFailed(o);
    }
    if (!o.objectsApplied()) {
      return status(
          CsvPhase.INSTALL_READY,
          CsvReason.REQUIREMENTS_MET,
          "all requirements found, attempting install");
    }
    return fromDeployments(o, CsvPhase.INSTALLING, CsvReason.WAITING);
  }

  private static CsvStatus afterSuccess(CsvObservation o) {
    if (o.unmetRequirements() != null) {
      return status(
          CsvPhase.FAILED,
          CsvReason.REQUIREMENTS_NOT_MET,
          withDetail("requirements no longer met", o.unmetRequirements()));
    }
    if (o.apiRejection() != null) {
      return componentFailed(o);
    }
    if (!o.objectsApplied()) {
      return status(
          CsvPhase.INSTALL_READY,
          CsvReason.NEEDS_REINSTALL,
          "calculated deployment install is bad");
    }
    return fromDeployments(o, CsvPhase.FAILED, CsvReason.COMPONENT_UNHEALTHY);
  }

  private static CsvStatus afterFailure(CsvObservation o) {
    if (o.unmetRequirements() != null) {
      return status(
          CsvPhase.FAILED,
          CsvReason.REQUIREMENTS_NOT_MET,
          withDetail("requirements no longer met", o.unmetRequirements()));
    }
    if (o.apiRejection() != null) {
      return componentFailed(o);
    }
    if (!o.objectsApplied()) {
      return status(
          CsvPhase.PENDING, CsvReason.NEEDS_REINSTALL, "calculated deployment install is bad");
    }
    return fromDeployments(o, CsvPhase.INSTALLING, CsvReason.WAITING);
  }

  /**
   * Deadline exceeded fails; otherwise an unavailable deployment gives {@code notReady}; all
   * available succeeds.
   */
  private static CsvStatus fromDeployments(
      CsvObservation o, CsvPhase notReadyPhase, CsvReason notReadyReason) {
    for (DeploymentState d : o.deployments()) {
      if (!d.available() && d.progressDeadlineExceeded()) {
        return status(
            CsvPhase.FAILED,
            CsvReason.INSTALL_CHECK_FAILED,
            "install failed: deployment "
                + d.name()
                + " not ready before timeout: deployment \""
                + d.name()
                + "\" exceeded its progress deadline");
      }
    }
    for (DeploymentState d : o.deployments()) {
      if (!d.available()) {
        return status(
            notReadyPhase,
            notReadyReason,
            "installing: waiting for deployment " + d.name() + " to become ready");
      }
    }
    return status(
        CsvPhase.SUCCEEDED,
        CsvReason.INSTALL_SUCCESSFUL,
        "install strategy completed with no errors");
  }

  private static CsvStatus componentFailed(CsvObservation o) {
    return status(
        CsvPhase.FAILED,
        CsvReason.COMPONENT_FAILED,
        "install strategy failed: " + o.apiRejection());
  }

  private static String withDetail(String message, String detail) {
    return detail.isBlank() ? message : message + ": " + detail;
  }

  private static CsvStatus status(CsvPhase phase, CsvReason reason, String message) {
    return new CsvStatus(phase, reason, message);
  }
}
