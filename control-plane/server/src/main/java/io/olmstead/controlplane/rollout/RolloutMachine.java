package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.Wave;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rollout state machine as a pure step function: from the persisted rollout, each cluster's
 * last report and the time, the next state and the transitions that lead there. Idempotent:
 * stepping a result again with the same inputs changes nothing, so a restart that repeats a step
 * neither approves twice nor skips a wave.
 */
public final class RolloutMachine {
  /** The agent's phase for an operator running as intended (OLM's CSV phase). */
  static final String SUCCEEDED = "Succeeded";

  static final String FAILED = "Failed";

  /**
   * How long a cluster that was already failing when approved may take to say anything new (an
   * agent answers a new approved version within seconds) before the rollout counts it failed with
   * its standing error.
   */
  static final Duration STALE_FAILURE_GRACE = Duration.ofSeconds(30);

  private RolloutMachine() {}

  /**
   * A new rollout: every planned cluster Pending in its wave, remembering the version it runs now.
   */
  public static Rollout initial(
      String id,
      String subscription,
      String target,
      RolloutStrategy strategy,
      List<WavePlanner.PlannedWave> plan,
      Map<String, String> currentVersions) {
    List<Wave> waves = new ArrayList<>();
    Map<String, Member> members = new LinkedHashMap<>();
    for (int i = 0; i < plan.size(); i++) {
      waves.add(new Wave(i, plan.get(i).name(), WaveState.Pending, null, null, null));
      for (String c : plan.get(i).clusters()) {
        members.put(c, new Member(c, i, Step.Pending, currentVersions.get(c), null, null, null));
      }
    }
    return new Rollout(
        id, subscription, target, strategy, Phase.Progressing, waves, members, 0, false, null);
  }

  public static StepResult step(Rollout rollout, Map<String, Report> reports, Instant now) {
    return step(rollout, reports, now, CalendarGate.alwaysOpen(now), PreflightView.OFF);
  }

  /**
   * One step with the fleet calendar: a cluster is approved only while {@code gate} says it may
   * change (a rollout that ignores the calendar is given an always-open gate); its deadline and its
   * wave's soak count only that time.
   */
  public static StepResult step(
      Rollout rollout, Map<String, Report> reports, Instant now, CalendarGate gate) {
    return step(rollout, reports, now, gate, PreflightView.OFF);
  }

  /**
   * A step in which pending clusters are approved only as {@code preflight} decides (see {@link
   * PreflightView}).
   */
  static StepResult step(
      Rollout rollout, Map<String, Report> reports, PreflightView preflight, Instant now) {
    return step(rollout, reports, now, CalendarGate.alwaysOpen(now), preflight);
  }

  /** A step with both the calendar and the preflight verdicts. */
  static StepResult step(
      Rollout rollout,
      Map<String, Report> reports,
      Instant now,
      CalendarGate gate,
      PreflightView preflight) {
    return step(rollout, reports, now, gate, preflight, AnalysisView.NONE);
  }

  /**
   * A step with the calendar, the preflight verdicts and what the analysis checks measured so far.
   */
  static StepResult step(
      Rollout rollout,
      Map<String, Report> reports,
      Instant now,
      CalendarGate gate,
      PreflightView preflight,
      AnalysisView analysis) {
    return step(rollout, reports, now, gate, preflight, analysis, EdgeHolds.NONE);
  }

  /** A step that also holds the pending clusters whose upgrade edge is at risk on their facts. */
  static StepResult step(
      Rollout rollout,
      Map<String, Report> reports,
      Instant now,
      CalendarGate gate,
      PreflightView preflight,
      AnalysisView analysis,
      Map<String, EdgeHolds.Hold> edgeHolds) {
    return step(rollout, reports, now, gate, preflight, analysis, edgeHolds, TargetGroup.NONE);
  }

  /**
   * A step of one target of a multi-target rollout: it follows a sibling that ended or paused, and
   * approves a cluster only as its providers there allow ({@link TargetGroup}).
   */
  static StepResult step(
      Rollout rollout,
      Map<String, Report> reports,
      Instant now,
      CalendarGate gate,
      PreflightView preflight,
      AnalysisView analysis,
      Map<String, EdgeHolds.Hold> edgeHolds,
      TargetGroup group) {
    if (rollout.phase().active()) {
      Optional<StepResult> followed = group.follow(rollout);
      if (followed.isPresent()) {
        return followed.get();
      }
    }
    return new RolloutStepper(rollout, reports, now, gate, preflight, analysis, edgeHolds, group)
        .run();
  }

  /** The wave a promote ends now: the first that has not succeeded (empty when every wave has). */
  public static Optional<Wave> waitingWave(Rollout r) {
    return r.waves().stream().filter(w -> w.state() != WaveState.Succeeded).findFirst();
  }

  /**
   * A promote naming the wave it ends ({@code wave}; null: whichever is waiting, as a bare promote
   * does). A promote whose wave is no longer the waiting one (a retried request, after the engine
   * ended that wave) is refused: it would end the next wave too.
   */
  public static StepResult promote(Rollout r, String wave, String actor) {
    if (wave != null) {
      Optional<Wave> waiting = waitingWave(r);
      if (waiting.isEmpty() || !waiting.get().name().equals(wave)) {
        throw new IllegalStateException(
            "wave "
                + wave
                + " is not the wave waiting to be promoted ("
                + waiting.map(w -> "the waiting wave is " + w.name()).orElse("every wave has ended")
                + "); nothing changed");
      }
    }
    return command(r, "promote", actor);
  }

  /**
   * An operator's command; returns the new state, or throws {@link IllegalStateException} when not
   * allowed now.
   */
  public static StepResult command(Rollout r, String command, String actor) {
    List<Transition> t = new ArrayList<>();
    String by = " by " + actor;
    switch (command) {
      case "pause" -> {
        require(r.phase() == Phase.Progressing, "only a progressing rollout can be paused", r);
        t.add(new Transition("Paused", null, null, "paused" + by));
        return new StepResult(
            r.with(
                Phase.Paused, r.waves(), r.members(), r.acceptedFailures(), false, "paused" + by),
            t);
      }
      case "resume" -> {
        require(r.phase() == Phase.Paused, "only a paused rollout can be resumed", r);
        // failures seen so far are accepted by whoever resumes; the budget counts new ones from
        // here
        int accepted = (int) r.failed();
        t.add(
            new Transition(
                "Resumed", null, null, "resumed" + by + " accepting " + accepted + " failures"));
        return new StepResult(
            r.with(Phase.Progressing, r.waves(), r.members(), accepted, false, null), t);
      }
      case "promote" -> {
        require(r.phase() == Phase.Progressing, "only a progressing rollout can be promoted", r);
        t.add(new Transition("PromoteRequested", null, null, "promote" + by));
        return new StepResult(
            r.with(r.phase(), r.waves(), r.members(), r.acceptedFailures(), true, r.message()), t);
      }
      case "abort" -> {
        require(r.phase().active(), "the rollout has already ended", r);
        t.add(new Transition("Aborted", null, null, "aborted" + by));
        return new StepResult(
            r.with(
                Phase.Aborted, r.waves(), r.members(), r.acceptedFailures(), false, "aborted" + by),
            t);
      }
      case "rollback" -> {
        require(r.phase().active(), "the rollout has already ended", r);
        return rollBack(r, "rolled back" + by, t);
      }
      default -> throw new IllegalArgumentException("unknown command " + command);
    }
  }

  private static void require(boolean ok, String message, Rollout r) {
    if (!ok) {
      throw new IllegalStateException(message + " (state " + r.phase() + ")");
    }
  }

  /**
   * Every cluster this rollout approved goes back to the version it ran before; one that ran
   * nothing before (a fresh install, a joiner) gets back the approval it had when it became a
   * member, or none (the subscription's own version policy then applies, as before the rollout), so
   * no cluster is left approved at the target.
   */
  static StepResult rollBack(Rollout r, String reason, List<Transition> t) {
    Map<String, Member> members = new LinkedHashMap<>(r.members());
    for (Member m : r.members().values()) {
      if (m.approvedVersion() == null || m.step() == Step.Pending) {
        continue;
      }
      if (m.previousVersion() != null && !m.previousVersion().equals(m.approvedVersion())) {
        members.put(
            m.cluster(),
            m.with(
                Step.RolledBack,
                m.previousVersion(),
                m.approvedAt(),
                "approved version back to " + m.previousVersion()));
        t.add(
            new Transition(
                "ClusterRolledBack", null, m.cluster(), "back to " + m.previousVersion()));
      } else if (m.previousVersion() == null && !m.approvedVersion().equals(m.priorApproval())) {
        String back =
            m.priorApproval() == null
                ? "approval withdrawn (it ran nothing before the rollout)"
                : "approval back to " + m.priorApproval() + " (it ran nothing before the rollout)";
        // a failed one stays Failed (it counted against the budget), its approval goes back all the
        // same
        members.put(
            m.cluster(),
            m.step() == Step.Failed
                ? m.with(Step.Failed, m.priorApproval(), m.approvedAt(), m.message() + "; " + back)
                : m.with(Step.RolledBack, m.priorApproval(), m.approvedAt(), back));
        t.add(new Transition("ClusterRolledBack", null, m.cluster(), back));
      }
    }
    t.add(new Transition("RolledBack", null, null, reason));
    return new StepResult(
        r.with(Phase.RolledBack, r.waves(), members, r.acceptedFailures(), false, reason), t);
  }
}
