package io.olmstead.controlplane.rollout;

import io.olmstead.olmcore.semver.Version;
import java.time.Instant;
import java.util.Optional;

/**
 * Which reported phase speaks to a cluster's step in a rollout. A report about the approved version
 * (as target or as installed) does. So does one written after the approval about a step of the path
 * toward it: a target between the version the cluster ran before and the approved one (above it
 * when going up, below it when rolling back). A report about any other target, such as one still
 * describing a failed earlier attempt, says nothing about this step.
 */
final class StepReports {
  private StepReports() {}

  static boolean aboutThisStep(
      String target,
      String installed,
      String previous,
      String approved,
      Instant reportedAt,
      Instant approvedAt) {
    if (approved == null) {
      return false;
    }
    if (approved.equals(target) || approved.equals(installed)) {
      return true;
    }
    if (reportedAt == null
        || approvedAt == null
        || reportedAt.isBefore(approvedAt)
        || target == null) {
      return false;
    }
    Optional<Version> to = Version.tryParse(approved);
    Optional<Version> step = Version.tryParse(target);
    Optional<Version> from = previous == null ? Optional.empty() : Version.tryParse(previous);
    if (to.isEmpty() || step.isEmpty()) {
      return false;
    }
    if (from.isEmpty()) { // a first install: any step up to the approved version
      return step.get().compareTo(to.get()) <= 0;
    }
    int direction = to.get().compareTo(from.get());
    return direction > 0
        ? step.get().compareTo(from.get()) > 0 && step.get().compareTo(to.get()) < 0
        : step.get().compareTo(from.get()) < 0 && step.get().compareTo(to.get()) > 0;
  }
}
