package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.analysis.AnalysisCheck;
import io.olmstead.controlplane.analysis.AnalysisVerdicts;
import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.hypershift.HostedLabels;
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
import java.util.stream.Stream;

/**
 * One step of {@link RolloutMachine} (pure, a mutable working copy of the rollout): observe the
 * clusters' reports, check the failure budget, open, approve in, soak and complete waves under the
 * calendar and the preflight verdicts; a soaking wave completes only once its analysis checks
 * passed on each of its clusters that runs the target. A pending cluster whose upgrade edge is at
 * risk on its facts ({@link EdgeHolds}) stays Pending with the hold's reason, and its wave waits
 * for it, until the risk is accepted or cleared.
 */
final class RolloutStepper {
  private static final String SUCCEEDED = RolloutMachine.SUCCEEDED;
  private static final String FAILED = RolloutMachine.FAILED;
  private static final Duration STALE_FAILURE_GRACE = RolloutMachine.STALE_FAILURE_GRACE;
  private final Rollout in;
  private final Map<String, Report> reports;
  private final PreflightView preflight;
  private final AnalysisView analysis;
  private final Map<String, EdgeHolds.Hold> edgeHolds;
  private final TargetGroup group;
  private final Instant now;
  private final CalendarGate gate;
  private final Map<String, Member> members;
  private final List<Wave> waves;
  private final List<Transition> t = new ArrayList<>();
  private Phase phase;
  private String message;
  private boolean promote;

  RolloutStepper(
      Rollout in,
      Map<String, Report> reports,
      Instant now,
      CalendarGate gate,
      PreflightView preflight,
      AnalysisView analysis,
      Map<String, EdgeHolds.Hold> edgeHolds,
      TargetGroup group) {
    this.in = in;
    this.group = group;
    this.analysis = analysis;
    this.edgeHolds = edgeHolds;
    this.reports = reports;
    this.preflight = preflight;
    this.now = now;
    this.gate = gate;
    this.members = new LinkedHashMap<>(in.members());
    this.waves = new ArrayList<>(in.waves());
    this.phase = in.phase();
    this.message = in.message();
    this.promote = in.promoteRequested();
  }

  StepResult run() {
    if (!phase.active()) {
      return new StepResult(in, List.of());
    }
    observe();
    if (phase == Phase.Progressing) {
      applyAnalysis();
    }
    if (phase == Phase.Progressing) {
      long over = in.failed() + newFailures() - in.acceptedFailures();
      int allowed = in.strategy().maxFailures().allowed(members.size());
      if (over > allowed) {
        String reason = over + " failed clusters exceed the budget of " + allowed;
        if (in.strategy().onFailure() == RolloutStrategy.OnFailure.ROLLBACK) {
          return RolloutMachine.rollBack(build(), reason, t);
        }
        // fail: the rollout ends Failed, its approvals stay where they are (as after an abort)
        phase =
            in.strategy().onFailure() == RolloutStrategy.OnFailure.FAIL
                ? Phase.Failed
                : Phase.Paused;
        message = reason;
        t.add(new Transition(phase.name(), null, null, reason));
      } else {
        advance();
      }
    }
    return new StepResult(build(), t);
  }

  /**
   * A check that ended without passing on a cluster of an open or soaking wave, running the target:
   * with {@code onFailure: budget} the cluster fails (the failure budget decides); {@code abort}
   * ends the rollout Aborted; {@code pause}, and any inconclusive check (never taken for a
   * success), pause it.
   */
  private void applyAnalysis() {
    for (AnalysisView.Ended e : analysis.ended()) {
      Member m = members.get(e.key().cluster());
      Wave w = e.key().wave() < waves.size() ? waves.get(e.key().wave()) : null;
      if (m == null
          || m.step() != Step.Succeeded
          || w == null
          || (w.state() != WaveState.Open && w.state() != WaveState.Soaking)) {
        continue;
      }
      String why = AnalysisView.describe(e);
      boolean failed = e.entry().status() == AnalysisVerdicts.Status.FAILED;
      t.add(
          new Transition(
              failed ? "AnalysisFailed" : "AnalysisInconclusive", w.name(), m.cluster(), why));
      AnalysisCheck.OnFailure policy =
          failed ? e.check().onFailure() : AnalysisCheck.OnFailure.PAUSE;
      if (policy == AnalysisCheck.OnFailure.BUDGET) {
        set(m.with(Step.Failed, m.approvedVersion(), m.approvedAt(), why));
        t.add(new Transition("ClusterFailed", w.name(), m.cluster(), why));
        continue;
      }
      phase = policy == AnalysisCheck.OnFailure.ABORT ? Phase.Aborted : Phase.Paused;
      message = why;
      t.add(new Transition(phase.name(), null, null, why));
      return;
    }
  }

  private long newFailures() {
    return members.values().stream().filter(m -> m.step() == Step.Failed).count() - in.failed();
  }

  private Rollout build() {
    return in.with(phase, waves, members, in.acceptedFailures(), promote, message);
  }

  /**
   * Progressing clusters become Succeeded, Failed or Blocked from their reports, or Failed past the
   * deadline.
   */
  private void observe() {
    Duration deadline = Duration.ofSeconds(in.strategy().progressDeadlineSeconds());
    for (Member m : in.members().values()) {
      if (m.step() == Step.StillFailed) {
        observeStillFailed(m);
        continue;
      }
      if (m.step() != Step.Progressing) {
        continue;
      }
      Report r = reports.get(m.cluster());
      String name = waves.get(m.wave()).name();
      if (r != null
          && in.targetVersion().equals(r.installedVersion())
          && SUCCEEDED.equals(r.phase())) {
        set(
            m.with(
                Step.Succeeded,
                m.approvedVersion(),
                m.approvedAt(),
                "running " + in.targetVersion()));
        t.add(
            new Transition("ClusterSucceeded", name, m.cluster(), "running " + in.targetVersion()));
      } else if (r != null && r.online() && FAILED.equals(r.phase())) {
        String why = r.message() == null ? "reported Failed" : r.message();
        set(m.with(Step.Failed, m.approvedVersion(), m.approvedAt(), why));
        t.add(new Transition("ClusterFailed", name, m.cluster(), why));
      } else if (r != null
          && r.online()
          && r.failedBeforeApproval()
          && m.approvedAt() != null
          && !now.isBefore(deadlineStart(m, r).plus(min(STALE_FAILURE_GRACE, deadline)))) {
        // failing before the rollout reached it: not the rollout's failure, so not the budget's
        // (unless it fails again)
        String why =
            "still Failed as before its approval: "
                + (r.message() == null ? "no message" : r.message());
        set(m.with(Step.StillFailed, m.approvedVersion(), m.approvedAt(), why));
        t.add(new Transition("ClusterStillFailed", name, m.cluster(), why));
      } else if (r != null && r.online() && r.blocked()) {
        String why = r.message() == null ? "upgrade blocked" : r.message();
        set(m.with(Step.Blocked, m.approvedVersion(), m.approvedAt(), why));
        t.add(new Transition("ClusterBlocked", name, m.cluster(), why));
      } else if (phase == Phase.Progressing
          && r != null
          && r.online()
          && m.approvedAt() != null
          && gate.openTime(m.cluster(), deadlineStart(m, r)).compareTo(deadline) >= 0) {
        // offline clusters wait: only a connected cluster that does not get there in time has
        // failed
        String why = "progress deadline of " + deadline.toSeconds() + "s exceeded";
        set(m.with(Step.Failed, m.approvedVersion(), m.approvedAt(), why));
        t.add(new Transition("ClusterFailed", name, m.cluster(), why));
      }
    }
  }

  /**
   * A cluster still failing as before: it succeeds, or fails again (then it counts), on a report
   * about this step.
   */
  private void observeStillFailed(Member m) {
    Report r = reports.get(m.cluster());
    String name = waves.get(m.wave()).name();
    if (r != null
        && in.targetVersion().equals(r.installedVersion())
        && SUCCEEDED.equals(r.phase())) {
      set(
          m.with(
              Step.Succeeded,
              m.approvedVersion(),
              m.approvedAt(),
              "running " + in.targetVersion()));
      t.add(new Transition("ClusterSucceeded", name, m.cluster(), "running " + in.targetVersion()));
    } else if (r != null && r.online() && FAILED.equals(r.phase())) {
      String why = "failed again: " + (r.message() == null ? "reported Failed" : r.message());
      set(m.with(Step.Failed, m.approvedVersion(), m.approvedAt(), why));
      t.add(new Transition("ClusterFailed", name, m.cluster(), why));
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /** The approval, or the cluster's return when it came back online after it. */
  private static Instant deadlineStart(Member m, Report r) {
    return r.onlineSince() != null && r.onlineSince().isAfter(m.approvedAt())
        ? r.onlineSince()
        : m.approvedAt();
  }

  private void advance() {
    for (int i = 0; i < waves.size(); i++) {
      Wave w = waves.get(i);
      if (w.state() == WaveState.Succeeded) {
        approve(
            i,
            Integer.MAX_VALUE); // a promoted wave's clusters outside their windows follow when they
        // open
        continue;
      }
      if (promote) {
        promote = false;
        if (w.openedAt() == null) {
          w = w.with(WaveState.Open, now, null, null);
          t.add(new Transition("WaveOpened", w.name(), null, null));
        }
        waves.set(i, w.with(WaveState.Succeeded, w.openedAt(), w.soakingSince(), now));
        approve(i, Integer.MAX_VALUE);
        t.add(new Transition("WavePromoted", w.name(), null, "promoted before it completed"));
        continue;
      }
      if (WaveWindows.waits(
          w,
          clusters(i),
          inWave(i).allMatch(m -> m.step().settled()),
          gate,
          now,
          in.strategy().soakSeconds())) {
        waves.set(
            i,
            WaveWindows.waiting(
                w, inWave(i).allMatch(m -> m.step().settled()), now, clusters(i), gate, t));
        return;
      }
      if (w.state() == WaveState.Pending || w.state() == WaveState.WaitingForWindow) {
        w = WaveWindows.reopen(w, now, t);
        waves.set(i, w);
      }
      approve(i, limit());
      if (w.state() == WaveState.Open && inWave(i).allMatch(m -> m.step().settled())) {
        w = w.with(WaveState.Soaking, w.openedAt(), now, null);
        waves.set(i, w);
        t.add(new Transition("WaveSoaking", w.name(), null, null));
      }
      // a cluster that joined the wave while it soaked is approved (and settles) before the wave
      // succeeds
      if (w.state() == WaveState.Soaking
          && inWave(i).allMatch(m -> m.step().settled())
          && gate.openTimeOfAny(clusters(i), w.soakingSince())
                  .compareTo(Duration.ofSeconds(in.strategy().soakSeconds()))
              >= 0
          && analysis.passed(
              i, inWave(i).filter(m -> m.step() == Step.Succeeded).map(Member::cluster).toList())
          && group.laterSettled(i, clusters(i))) {
        waves.set(i, w.with(WaveState.Succeeded, w.openedAt(), w.soakingSince(), now));
        t.add(new Transition("WaveSucceeded", w.name(), null, null));
        continue;
      }
      return;
    }
    List<Member> exceptions =
        members.values().stream().filter(m -> m.step() != Step.Succeeded).toList();
    if (exceptions.isEmpty()) {
      phase = Phase.Succeeded;
      message = null;
      t.add(new Transition("Succeeded", null, null, "every wave succeeded"));
      return;
    }
    // every wave is done, yet some clusters do not run the target: the end says so and names them
    phase = Phase.SucceededWithExceptions;
    message = RolloutExceptions.describe(in.targetVersion(), members.size(), exceptions);
    t.add(new Transition("SucceededWithExceptions", null, null, message));
  }

  private List<String> clusters(int wave) {
    return inWave(wave).map(Member::cluster).toList();
  }

  private int limit() {
    Integer max = in.strategy().maxUnavailable();
    return max == null ? Integer.MAX_VALUE : max;
  }

  private Stream<Member> inWave(int wave) {
    return members.values().stream().filter(m -> m.wave() == wave);
  }

  /**
   * Approves pending clusters of the wave in order while fewer than {@code limit} of its clusters
   * are unavailable (approved and not yet settled, or offline).
   */
  private void approve(int wave, int limit) {
    long unavailable =
        inWave(wave)
            .filter(
                m -> m.step() == Step.Progressing || (!m.step().settled() && !online(m.cluster())))
            .count();
    String name = waves.get(wave).name();
    for (Member m : inWave(wave).toList()) {
      if (m.step() != Step.Pending || !gate.open(m.cluster())) {
        continue; // outside its maintenance windows or in a freeze: it waits
      }
      Report report = reports.get(m.cluster());
      if (report != null && report.paused()) {
        // never approved while its HostedCluster is paused: the wave waits for it, as HyperShift
        // holds it
        if (!HostedLabels.PAUSED_HOLD.equals(m.message())) {
          set(m.with(Step.Pending, null, null, HostedLabels.PAUSED_HOLD));
        }
        continue;
      }
      if (holdOnEdge(m, name) || holdOnProvider(m, name)) {
        continue;
      }
      boolean online = online(m.cluster());
      if (online && unavailable >= limit) {
        break;
      }
      Report r = reports.get(m.cluster());
      PreflightView.Decision check =
          preflight.decide(m.cluster(), online, r == null ? null : r.onlineSince(), now);
      if (check.kind() == PreflightView.Kind.WAIT) {
        continue;
      }
      if (check.kind() == PreflightView.Kind.HOLD) {
        // held where it runs: never approved by this rollout, settled for its wave
        set(m.with(Step.Blocked, null, null, check.note()));
        t.add(new Transition("ClusterHeld", name, m.cluster(), check.note()));
        continue;
      }
      set(
          m.with(
              Step.Progressing,
              in.targetVersion(),
              now,
              "approved for "
                  + in.targetVersion()
                  + (check.note() == null ? "" : "; " + check.note())));
      t.add(new Transition("ClusterApproved", name, m.cluster(), in.targetVersion()));
      if (online) {
        unavailable++;
      }
    }
  }

  /**
   * Whether {@code m} waits for its providers (the earlier targets of its rollout) on its cluster,
   * or is held because one failed there: held, it settles Blocked, never approved, with the
   * provider named ({@link TargetGroup}).
   */
  private boolean holdOnProvider(Member m, String wave) {
    TargetGroup.Gate gate = group.gate(m.cluster());
    if (gate.kind() == TargetGroup.Kind.WAIT) {
      if (!gate.message().equals(m.message())) {
        set(m.with(Step.Pending, null, null, gate.message()));
      }
      return true;
    }
    if (gate.kind() == TargetGroup.Kind.HOLD) {
      set(m.with(Step.Blocked, null, null, gate.message()));
      t.add(new Transition("ClusterHeld", wave, m.cluster(), gate.message()));
      return true;
    }
    return false;
  }

  /**
   * Whether {@code m} waits on an edge at risk (recording the hold when its reason changed); a
   * cluster no longer held (the risk was accepted or cleared) loses the hold's reason and may be
   * approved.
   */
  private boolean holdOnEdge(Member m, String wave) {
    EdgeHolds.Hold hold = edgeHolds.get(m.cluster());
    if (hold != null) {
      if (!hold.message().equals(m.message())) {
        set(m.with(Step.Pending, null, null, hold.message()));
        t.add(new Transition("ClusterHeld", wave, m.cluster(), hold.message()));
      }
      return true;
    }
    String released = EdgeHolds.riskOf(m.message());
    if (released != null) {
      set(m.with(Step.Pending, null, null, null));
      t.add(
          new Transition(
              "ClusterReleased",
              wave,
              m.cluster(),
              "edge risk " + released + " accepted or cleared"));
    }
    return false;
  }

  private boolean online(String cluster) {
    Report r = reports.get(cluster);
    return r != null && r.online();
  }

  private void set(Member m) {
    members.put(m.cluster(), m);
  }
}
