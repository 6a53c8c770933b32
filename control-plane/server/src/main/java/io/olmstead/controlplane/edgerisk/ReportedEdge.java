package io.olmstead.controlplane.edgerisk;

import io.olmstead.olmcore.semver.Version;
import java.util.Objects;
import java.util.Optional;

/**
 * Which attempt at an upgrade edge an agent's report tells of, outside rollouts (pure): the
 * cluster's stored state of a subscription before the report and the reported one. A report {@code
 * Failed} while running X and moving to a higher Y is a failure of {@code X -> Y} (unless the
 * stored state already said the same failure: a repeated report is not a new attempt); a report
 * {@code Succeeded} at Y after the stored state ran a lower X is a success of {@code X -> Y}.
 * Everything else (first installs, rollbacks, unparsable versions, a package OLM manages) tells of
 * no edge, and an attempt is evidence only when it was {@link #asked}.
 */
public final class ReportedEdge {
  static final String FAILED = "Failed";
  static final String SUCCEEDED = "Succeeded";

  /** The agent's reason when OLM manages the package there: the agent took no edge. */
  static final String MANAGED_BY_OLM = "ManagedByOLM";

  private ReportedEdge() {}

  /**
   * A subscription's state on a cluster: the version running, the one it moves to, the phase,
   * reason, message.
   */
  public record State(
      String installedVersion, String targetVersion, String phase, String reason, String message) {}

  /**
   * An attempt: the edge {@code from -> to}, whether it failed, and the agent's words (of a
   * failure).
   */
  public record Attempt(String from, String to, boolean failed, String detail) {}

  /** The attempt {@code now} tells of after {@code before} (null: nothing stored yet), if any. */
  public static Optional<Attempt> of(State before, State now) {
    if (now == null || now.installedVersion() == null) {
      return Optional.empty();
    }
    if (FAILED.equals(now.phase())
        && !MANAGED_BY_OLM.equals(now.reason())
        && upgrade(now.installedVersion(), now.targetVersion())) {
      boolean repeated =
          before != null
              && FAILED.equals(before.phase())
              && Objects.equals(before.installedVersion(), now.installedVersion())
              && Objects.equals(before.targetVersion(), now.targetVersion());
      return repeated
          ? Optional.empty()
          : Optional.of(
              new Attempt(
                  now.installedVersion(),
                  now.targetVersion(),
                  true,
                  detail(now.reason(), now.message())));
    }
    if (SUCCEEDED.equals(now.phase())
        && before != null
        && upgrade(before.installedVersion(), now.installedVersion())) {
      return Optional.of(
          new Attempt(
              before.installedVersion(),
              now.installedVersion(),
              false,
              "running " + now.installedVersion()));
    }
    return Optional.empty();
  }

  /**
   * Whether the control plane asked for the attempt: its target is the {@code maxVersion} last sent
   * the cluster for the subscription (null: none sent). An agent can report any edge; only those
   * towards what it was told to run are evidence.
   */
  public static boolean asked(Attempt attempt, String sentMaxVersion) {
    return sentMaxVersion != null && sentMaxVersion.equals(attempt.to());
  }

  private static boolean upgrade(String from, String to) {
    if (from == null || to == null) {
      return false;
    }
    Optional<Version> a = Version.tryParse(from);
    Optional<Version> b = Version.tryParse(to);
    return a.isPresent() && b.isPresent() && a.get().compareTo(b.get()) < 0;
  }

  private static String detail(String reason, String message) {
    if (reason == null || reason.isBlank()) {
      return message == null ? "reported Failed" : message;
    }
    return message == null || message.isBlank() ? reason : reason + ": " + message;
  }
}
