package io.olmstead.controlplane.rollout;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The persisted state of a rollout as the pure state machine sees it (immutable records). */
public final class RolloutModel {
  private RolloutModel() {}

  /**
   * The rollout's state, as the API names it. {@code SucceededWithExceptions}: every wave
   * completed, and some clusters do not run the target (held, failed within the budget, still
   * failing); the message lists them.
   */
  public enum Phase {
    Progressing,
    Paused,
    Succeeded,
    SucceededWithExceptions,
    Failed,
    Aborted,
    RolledBack;

    public boolean active() {
      return this == Progressing || this == Paused;
    }

    /**
     * Every wave completed (some clusters may not run the target: {@code SucceededWithExceptions}
     * names them).
     */
    public boolean completed() {
      return this == Succeeded || this == SucceededWithExceptions;
    }
  }

  /**
   * A wave's state: waiting its turn, open (clusters approved), soaking (all done, waiting the soak
   * time), waiting for a window (none of its clusters may change now: its clocks stopped),
   * succeeded.
   */
  public enum WaveState {
    Pending,
    Open,
    Soaking,
    WaitingForWindow,
    Succeeded
  }

  /**
   * A cluster's step in the rollout. {@code StillFailed}: it was failing before its approval and
   * has said nothing new since; it does not count against the budget unless it fails again.
   */
  public enum Step {
    Pending,
    Progressing,
    Succeeded,
    Failed,
    Blocked,
    RolledBack,
    StillFailed;

    /** Whether the cluster is done for its wave's purposes. */
    public boolean settled() {
      return this == Succeeded
          || this == Failed
          || this == Blocked
          || this == RolledBack
          || this == StillFailed;
    }
  }

  /** One wave's progress. */
  public record Wave(
      int index,
      String name,
      WaveState state,
      Instant openedAt,
      Instant soakingSince,
      Instant completedAt) {
    Wave with(WaveState s, Instant opened, Instant soaking, Instant completed) {
      return new Wave(index, name, s, opened, soaking, completed);
    }
  }

  /**
   * One cluster in a rollout: its wave, its step, the version it ran when the rollout started
   * ({@code previous}, null when nothing was installed), the version it is approved for now (null:
   * not approved by this rollout yet), and the approval it had when it became a member ({@code
   * priorApproval}, null: none; where a rollback sends a cluster that ran nothing before).
   */
  public record Member(
      String cluster,
      int wave,
      Step step,
      String previousVersion,
      String approvedVersion,
      Instant approvedAt,
      String message,
      String priorApproval) {
    public Member(
        String cluster,
        int wave,
        Step step,
        String previousVersion,
        String approvedVersion,
        Instant approvedAt,
        String message) {
      this(cluster, wave, step, previousVersion, approvedVersion, approvedAt, message, null);
    }

    Member with(Step s, String approved, Instant at, String msg) {
      return new Member(cluster, wave, s, previousVersion, approved, at, msg, priorApproval);
    }
  }

  /**
   * What a cluster last reported for the subscription, its connection status now ({@code
   * connected}, {@code disconnected}, {@code pending} never connected, null unknown) and since when
   * it is connected (null: unknown); a cluster that was offline gets its progress deadline counted
   * from its return. {@code failedBeforeApproval}: its last report, written before its approval, is
   * {@code Failed} about something else than this step (it was failing already; {@code message}
   * says why).
   */
  public record Report(
      String connection,
      String installedVersion,
      String phase,
      String message,
      boolean blocked,
      Instant onlineSince,
      boolean failedBeforeApproval,
      boolean paused) {
    /**
     * A connected cluster at {@code installedVersion} (null: nothing) in {@code phase} (null: no
     * report yet).
     */
    public static Report connected(String installedVersion, String phase) {
      return new Report("connected", installedVersion, phase, null, false, null, false, false);
    }

    /** A cluster whose agent went away; what it last reported. */
    public static Report disconnected(String installedVersion, String phase) {
      return new Report("disconnected", installedVersion, phase, null, false, null, false, false);
    }

    /** Whether the cluster's agent is connected now. */
    public boolean online() {
      return "connected".equals(connection);
    }

    /** This report with the cluster's connection status ({@code pending}: it never connected). */
    public Report withConnection(String status) {
      return new Report(
          status,
          installedVersion,
          phase,
          message,
          blocked,
          onlineSince,
          failedBeforeApproval,
          paused);
    }

    /** This report with the agent's message. */
    public Report withMessage(String text) {
      return new Report(
          connection,
          installedVersion,
          phase,
          text,
          blocked,
          onlineSince,
          failedBeforeApproval,
          paused);
    }

    /**
     * This report with the operator refusing the upgrade ({@code Upgradeable=False}), {@code text}
     * saying why.
     */
    public Report blockedBy(String text) {
      return new Report(
          connection,
          installedVersion,
          phase,
          text,
          true,
          onlineSince,
          failedBeforeApproval,
          paused);
    }

    /** This report from a cluster connected since {@code at}. */
    public Report connectedSince(Instant at) {
      return new Report(
          connection, installedVersion, phase, message, blocked, at, failedBeforeApproval, paused);
    }

    /**
     * This report written before the cluster's approval, failing about something else than this
     * step.
     */
    public Report failingBeforeItsApproval() {
      return new Report(
          connection, installedVersion, phase, message, blocked, onlineSince, true, paused);
    }

    /** This report from a hosted cluster whose reconciliation is paused. */
    public Report whilePaused() {
      return new Report(
          connection,
          installedVersion,
          phase,
          message,
          blocked,
          onlineSince,
          failedBeforeApproval,
          true);
    }
  }

  /** A rollout as persisted: the engine loads it, steps it, and writes back what changed. */
  public record Rollout(
      String id,
      String subscription,
      String targetVersion,
      RolloutStrategy strategy,
      Phase phase,
      List<Wave> waves,
      Map<String, Member> members,
      int acceptedFailures,
      boolean promoteRequested,
      String message) {
    public Rollout {
      waves = List.copyOf(waves);
      members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
    }

    public long failed() {
      return members.values().stream().filter(m -> m.step() == Step.Failed).count();
    }

    Rollout with(
        Phase p, List<Wave> w, Map<String, Member> m, int accepted, boolean promote, String msg) {
      return new Rollout(
          id, subscription, targetVersion, strategy, p, w, m, accepted, promote, msg);
    }
  }

  /** One recorded change (history row and audit entry). */
  public record Transition(String kind, String wave, String cluster, String message) {}

  /** The outcome of one step: the new state and what changed, in order. */
  public record StepResult(Rollout rollout, List<Transition> transitions) {
    public boolean changed() {
      return !transitions.isEmpty();
    }
  }
}
