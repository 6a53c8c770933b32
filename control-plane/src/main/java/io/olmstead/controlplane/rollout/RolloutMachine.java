package io.olmstead.controlplane.rollout;

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

/**
 * The rollout state machine as a pure step function: from the persisted rollout, each cluster's last report and
 * the time, the next state and the transitions that lead there. Idempotent: stepping a result again with the same
 * inputs changes nothing, so a restart that repeats a step neither approves twice nor skips a wave.
 */
public final class RolloutMachine {
  /** The agent's phase for an operator running as intended (OLM's CSV phase). */
  static final String SUCCEEDED = "Succeeded";
  static final String FAILED = "Failed";
  /**
   * How long a cluster that was already failing when approved may take to say anything new (an agent answers a new
   * approved version within seconds) before the rollout counts it failed with its standing error.
   */
  static final Duration STALE_FAILURE_GRACE = Duration.ofSeconds(30);

  private RolloutMachine() {
  }

  /** A new rollout: every planned cluster Pending in its wave, remembering the version it runs now. */
  public static Rollout initial(String id, String subscription, String target, RolloutStrategy strategy,
      List<RolloutPlanner.PlannedWave> plan, Map<String, String> currentVersions) {
    List<Wave> waves = new ArrayList<>();
    Map<String, Member> members = new LinkedHashMap<>();
    for (int i = 0; i < plan.size(); i++) {
      waves.add(new Wave(i, plan.get(i).name(), WaveState.Pending, null, null, null));
      for (String c : plan.get(i).clusters()) {
        members.put(c, new Member(c, i, Step.Pending, currentVersions.get(c), null, null, null));
      }
    }
    return new Rollout(id, subscription, target, strategy, Phase.Progressing, waves, members, 0, false, null);
  }

  public static StepResult step(Rollout rollout, Map<String, Report> reports, Instant now) {
    return step(rollout, reports, now, CalendarGate.alwaysOpen(now), PreflightView.OFF);
  }

  /**
   * One step with the fleet calendar: a cluster is approved only while {@code gate} says it may change (a rollout
   * that ignores the calendar is given an always-open gate); its deadline and its wave's soak count only that time.
   */
  public static StepResult step(Rollout rollout, Map<String, Report> reports, Instant now, CalendarGate gate) {
    return step(rollout, reports, now, gate, PreflightView.OFF);
  }

  /** A step in which pending clusters are approved only as {@code preflight} decides (see {@link PreflightView}). */
  static StepResult step(Rollout rollout, Map<String, Report> reports, PreflightView preflight, Instant now) {
    return step(rollout, reports, now, CalendarGate.alwaysOpen(now), preflight);
  }

  /** A step with both the calendar and the preflight verdicts. */
  static StepResult step(Rollout rollout, Map<String, Report> reports, Instant now, CalendarGate gate,
      PreflightView preflight) {
    return new Stepper(rollout, reports, now, gate, preflight).run();
  }

  /** An operator's command; returns the new state, or throws {@link IllegalStateException} when not allowed now. */
  public static StepResult command(Rollout r, String command, String actor) {
    List<Transition> t = new ArrayList<>();
    String by = " by " + actor;
    switch (command) {
      case "pause" -> {
        require(r.phase() == Phase.Progressing, "only a progressing rollout can be paused", r);
        t.add(new Transition("Paused", null, null, "paused" + by));
        return new StepResult(r.with(Phase.Paused, r.waves(), r.members(), r.acceptedFailures(), false,
            "paused" + by), t);
      }
      case "resume" -> {
        require(r.phase() == Phase.Paused, "only a paused rollout can be resumed", r);
        // failures seen so far are accepted by whoever resumes; the budget counts new ones from here
        int accepted = (int) r.failed();
        t.add(new Transition("Resumed", null, null, "resumed" + by + " accepting " + accepted + " failures"));
        return new StepResult(r.with(Phase.Progressing, r.waves(), r.members(), accepted, false, null), t);
      }
      case "promote" -> {
        require(r.phase() == Phase.Progressing, "only a progressing rollout can be promoted", r);
        t.add(new Transition("PromoteRequested", null, null, "promote" + by));
        return new StepResult(r.with(r.phase(), r.waves(), r.members(), r.acceptedFailures(), true, r.message()), t);
      }
      case "abort" -> {
        require(r.phase().active(), "the rollout has already ended", r);
        t.add(new Transition("Aborted", null, null, "aborted" + by));
        return new StepResult(r.with(Phase.Aborted, r.waves(), r.members(), r.acceptedFailures(), false,
            "aborted" + by), t);
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

  /** Every cluster this rollout approved goes back to the version it ran before (none before: stays). */
  static StepResult rollBack(Rollout r, String reason, List<Transition> t) {
    Map<String, Member> members = new LinkedHashMap<>(r.members());
    for (Member m : r.members().values()) {
      if (m.approvedVersion() != null && m.step() != Step.Pending && m.previousVersion() != null
          && !m.previousVersion().equals(m.approvedVersion())) {
        members.put(m.cluster(), m.with(Step.RolledBack, m.previousVersion(), m.approvedAt(),
            "approved version back to " + m.previousVersion()));
        t.add(new Transition("ClusterRolledBack", null, m.cluster(), "back to " + m.previousVersion()));
      }
    }
    t.add(new Transition("RolledBack", null, null, reason));
    return new StepResult(r.with(Phase.RolledBack, r.waves(), members, r.acceptedFailures(), false, reason), t);
  }

  /** One step's mutable working copy. */
  private static final class Stepper {
    private final Rollout in;
    private final Map<String, Report> reports;
    private final PreflightView preflight;
    private final Instant now;
    private final CalendarGate gate;
    private final Map<String, Member> members;
    private final List<Wave> waves;
    private final List<Transition> t = new ArrayList<>();
    private Phase phase;
    private String message;
    private boolean promote;

    Stepper(Rollout in, Map<String, Report> reports, Instant now, CalendarGate gate, PreflightView preflight) {
      this.in = in;
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
        long over = in.failed() + newFailures() - in.acceptedFailures();
        int allowed = in.strategy().maxFailures().allowed(members.size());
        if (over > allowed) {
          String reason = over + " failed clusters exceed the budget of " + allowed;
          if (in.strategy().onFailure() == RolloutStrategy.OnFailure.ROLLBACK) {
            return rollBack(build(), reason, t);
          }
          // fail: the rollout ends Failed, its approvals stay where they are (as after an abort)
          phase = in.strategy().onFailure() == RolloutStrategy.OnFailure.FAIL ? Phase.Failed : Phase.Paused;
          message = reason;
          t.add(new Transition(phase.name(), null, null, reason));
        } else {
          advance();
        }
      }
      return new StepResult(build(), t);
    }

    private long newFailures() {
      return members.values().stream().filter(m -> m.step() == Step.Failed).count() - in.failed();
    }

    private Rollout build() {
      return in.with(phase, waves, members, in.acceptedFailures(), promote, message);
    }

    /** Progressing clusters become Succeeded, Failed or Blocked from their reports, or Failed past the deadline. */
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
        if (r != null && in.targetVersion().equals(r.installedVersion()) && SUCCEEDED.equals(r.phase())) {
          set(m.with(Step.Succeeded, m.approvedVersion(), m.approvedAt(), "running " + in.targetVersion()));
          t.add(new Transition("ClusterSucceeded", name, m.cluster(), "running " + in.targetVersion()));
        } else if (r != null && r.online() && FAILED.equals(r.phase())) {
          String why = r.message() == null ? "reported Failed" : r.message();
          set(m.with(Step.Failed, m.approvedVersion(), m.approvedAt(), why));
          t.add(new Transition("ClusterFailed", name, m.cluster(), why));
        } else if (r != null && r.online() && r.failedBeforeApproval() && m.approvedAt() != null
            && !now.isBefore(deadlineStart(m, r).plus(min(STALE_FAILURE_GRACE, deadline)))) {
          // failing before the rollout reached it: not the rollout's failure, so not the budget's (unless it fails again)
          String why = "still Failed as before its approval: " + (r.message() == null ? "no message" : r.message());
          set(m.with(Step.StillFailed, m.approvedVersion(), m.approvedAt(), why));
          t.add(new Transition("ClusterStillFailed", name, m.cluster(), why));
        } else if (r != null && r.online() && r.blocked()) {
          String why = r.message() == null ? "upgrade blocked" : r.message();
          set(m.with(Step.Blocked, m.approvedVersion(), m.approvedAt(), why));
          t.add(new Transition("ClusterBlocked", name, m.cluster(), why));
        } else if (phase == Phase.Progressing && r != null && r.online() && m.approvedAt() != null
            && gate.openTime(m.cluster(), deadlineStart(m, r)).compareTo(deadline) >= 0) {
          // offline clusters wait: only a connected cluster that does not get there in time has failed
          String why = "progress deadline of " + deadline.toSeconds() + "s exceeded";
          set(m.with(Step.Failed, m.approvedVersion(), m.approvedAt(), why));
          t.add(new Transition("ClusterFailed", name, m.cluster(), why));
        }
      }
    }

    /** A cluster still failing as before: it succeeds, or fails again (then it counts), on a report about this step. */
    private void observeStillFailed(Member m) {
      Report r = reports.get(m.cluster());
      String name = waves.get(m.wave()).name();
      if (r != null && in.targetVersion().equals(r.installedVersion()) && SUCCEEDED.equals(r.phase())) {
        set(m.with(Step.Succeeded, m.approvedVersion(), m.approvedAt(), "running " + in.targetVersion()));
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
      return r.onlineSince() != null && r.onlineSince().isAfter(m.approvedAt()) ? r.onlineSince() : m.approvedAt();
    }

    private void advance() {
      for (int i = 0; i < waves.size(); i++) {
        Wave w = waves.get(i);
        if (w.state() == WaveState.Succeeded) {
          approve(i, Integer.MAX_VALUE); // a promoted wave's clusters outside their windows follow when they open
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
        if (WaveWindows.waits(w, clusters(i), inWave(i).allMatch(m -> m.step().settled()), gate, now,
            in.strategy().soakSeconds())) {
          waves.set(i, WaveWindows.waiting(w, inWave(i).allMatch(m -> m.step().settled()), now, clusters(i), gate,
              t));
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
        if (w.state() == WaveState.Soaking && gate.openTimeOfAny(clusters(i), w.soakingSince())
            .compareTo(Duration.ofSeconds(in.strategy().soakSeconds())) >= 0) {
          waves.set(i, w.with(WaveState.Succeeded, w.openedAt(), w.soakingSince(), now));
          t.add(new Transition("WaveSucceeded", w.name(), null, null));
          continue;
        }
        return;
      }
      phase = Phase.Succeeded;
      message = null;
      t.add(new Transition("Succeeded", null, null, "every wave succeeded"));
    }

    private List<String> clusters(int wave) {
      return inWave(wave).map(Member::cluster).toList();
    }

    private int limit() {
      Integer max = in.strategy().maxUnavailable();
      return max == null ? Integer.MAX_VALUE : max;
    }

    private java.util.stream.Stream<Member> inWave(int wave) {
      return members.values().stream().filter(m -> m.wave() == wave);
    }

    /**
     * Approves pending clusters of the wave in order while fewer than {@code limit} of its clusters are unavailable
     * (approved and not yet settled, or offline).
     */
    private void approve(int wave, int limit) {
      long unavailable = inWave(wave).filter(m -> m.step() == Step.Progressing || (!m.step().settled()
          && !online(m.cluster()))).count();
      String name = waves.get(wave).name();
      for (Member m : inWave(wave).toList()) {
        if (m.step() != Step.Pending || !gate.open(m.cluster())) {
          continue; // outside its maintenance windows or in a freeze: it waits
        }
        Report report = reports.get(m.cluster());
        if (report != null && report.paused()) {
          // never approved while its HostedCluster is paused: the wave waits for it, as HyperShift holds it
          if (!HostedLabels.PAUSED_HOLD.equals(m.message())) {
            set(m.with(Step.Pending, null, null, HostedLabels.PAUSED_HOLD));
          }
          continue;
        }
        boolean online = online(m.cluster());
        if (online && unavailable >= limit) {
          break;
        }
        Report r = reports.get(m.cluster());
        PreflightView.Decision check = preflight.decide(m.cluster(), online, r == null ? null : r.onlineSince(), now);
        if (check.kind() == PreflightView.Kind.WAIT) {
          continue;
        }
        if (check.kind() == PreflightView.Kind.HOLD) {
          // held where it runs: never approved by this rollout, settled for its wave
          set(m.with(Step.Blocked, null, null, check.note()));
          t.add(new Transition("ClusterHeld", name, m.cluster(), check.note()));
          continue;
        }
        set(m.with(Step.Progressing, in.targetVersion(), now, "approved for " + in.targetVersion()
            + (check.note() == null ? "" : "; " + check.note())));
        t.add(new Transition("ClusterApproved", name, m.cluster(), in.targetVersion()));
        if (online) {
          unavailable++;
        }
      }
    }

    private boolean online(String cluster) {
      Report r = reports.get(cluster);
      return r != null && r.online();
    }

    private void set(Member m) {
      members.put(m.cluster(), m);
    }
  }
}
