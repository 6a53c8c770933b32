package io.olmstead.controlplane.rollout;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code olmstead_rollout_*} metrics. Labels are bounded: cluster step (seven values), transition
 * kind (a fixed set, others counted as "other"); never rollout ids or cluster names.
 */
public final class RolloutMetrics {
  private static final Set<String> KINDS =
      Set.of(
          "ClusterApproved",
          "ClusterHeld",
          "ClusterSucceeded",
          "ClusterFailed",
          "ClusterBlocked",
          "ClusterRolledBack",
          "WaveOpened",
          "WaveSoaking",
          "WaveSucceeded",
          "WavePromoted",
          "Paused",
          "Resumed",
          "Aborted",
          "RolledBack",
          "Succeeded",
          "SucceededWithExceptions",
          "Created",
          "Failed",
          "WaveWaitingForWindow",
          "WaveResumed",
          "ClusterStillFailed",
          "AnalysisFailed",
          "AnalysisInconclusive");

  /** Operator commands, counted by name (the label set is this list). */
  static final List<String> COMMANDS = List.of("pause", "resume", "promote", "abort", "rollback");

  private final MeterRegistry registry;
  private final Map<String, Map<Step, Long>> clusters = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Long>> held = new ConcurrentHashMap<>();
  private final Map<String, Boolean> pausedByFailures = new ConcurrentHashMap<>();
  private final AtomicInteger active = new AtomicInteger();
  private final AtomicInteger leader = new AtomicInteger();
  private final Timer stepTimer;
  private final Map<String, Long> clustersByStatus = new ConcurrentHashMap<>();
  private final Map<String, Long> subscriptionsByPhase = new ConcurrentHashMap<>();
  private final AtomicLong unresolved = new AtomicLong();
  static final List<String> CLUSTER_STATUSES = List.of("pending", "connected", "disconnected");
  static final List<String> PHASES =
      List.of("Succeeded", "Failed", "Installing", "Pending", "other");

  public RolloutMetrics(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("olmstead.rollout.active", active, AtomicInteger::get)
        .description("Rollouts progressing or paused")
        .register(registry);
    Gauge.builder("olmstead.rollout.engine.leader", leader, AtomicInteger::get)
        .description("1 on the replica running the rollout engine")
        .register(registry);
    Gauge.builder(
            "olmstead.rollout.paused.failures",
            pausedByFailures,
            m -> m.values().stream().filter(Boolean::booleanValue).count())
        .description("Rollouts paused because failures exceeded their budget")
        .register(registry);
    for (Step step : Step.values()) {
      Gauge.builder(
              "olmstead.rollout.clusters",
              clusters,
              m -> m.values().stream().mapToLong(c -> c.getOrDefault(step, 0L)).sum())
          .tag("step", step.name())
          .description("Clusters of active rollouts by step")
          .register(registry);
    }
    for (String code : ClusterReason.CODES) {
      Gauge.builder(
              "olmstead.rollout.clusters.held",
              held,
              m -> m.values().stream().mapToLong(c -> c.getOrDefault(code, 0L)).sum())
          .tag("reason", code)
          .description("Clusters of active rollouts not moving, by reason (ClusterReason)")
          .register(registry);
    }
    for (String status : CLUSTER_STATUSES) {
      Gauge.builder("olmstead.fleet.clusters", clustersByStatus, m -> m.getOrDefault(status, 0L))
          .tag("status", status)
          .description(
              "Clusters by connection status (exported by the replica running the rollout engine)")
          .register(registry);
    }
    for (String phase : PHASES) {
      Gauge.builder(
              "olmstead.fleet.subscription.clusters",
              subscriptionsByPhase,
              m -> m.getOrDefault(phase, 0L))
          .tag("phase", phase)
          .description("Reported (subscription, cluster) pairs by phase (rollout engine replica)")
          .register(registry);
    }
    Gauge.builder("olmstead.fleet.resolution.failures", unresolved, AtomicLong::get)
        .description(
            "Reported (subscription, cluster) pairs that cannot be resolved (rollout engine replica)")
        .register(registry);
    stepTimer =
        Timer.builder("olmstead.rollout.step.duration")
            .description("Time to step and save one rollout")
            .register(registry);
    // every series of a bounded label set exists from the start at 0, so that increase() sees the
    // first event
    KINDS.forEach(this::counter);
    counter("other");
    COMMANDS.forEach(this::commandCounter);
  }

  void leader(boolean isLeader) {
    leader.set(isLeader ? 1 : 0);
    if (!isLeader) { // only the engine's replica exports fleet and rollout gauges: a former
      // leader's would be stale
      active.set(0);
      clusters.clear();
      held.clear();
      pausedByFailures.clear();
      clustersByStatus.clear();
      subscriptionsByPhase.clear();
      unresolved.set(0);
    }
  }

  void active(int count) {
    active.set(count);
  }

  /**
   * Forgets rollouts no longer active (ended by a command, or by a step whose save lost a race).
   */
  void retain(Collection<String> activeIds) {
    clusters.keySet().retainAll(activeIds);
    held.keySet().retainAll(activeIds);
    pausedByFailures.keySet().retainAll(activeIds);
  }

  /**
   * An operator command applied to a rollout, and the transitions it made (counted like the
   * engine's).
   */
  void command(String command, List<Transition> transitions) {
    if (COMMANDS.contains(command)) {
      commandCounter(command).increment();
    }
    counted(transitions);
  }

  /**
   * A rollout was created (committed): its {@code Created} transition, written by the store, not by
   * a step.
   */
  void created() {
    counter("Created").increment();
  }

  /**
   * Records a rollout's cluster counts while it is active ({@code heldByReason}: its held clusters
   * by reason code, {@link ClusterReason#counts}); forgets it when it ends.
   */
  void observed(Rollout r, Map<String, Long> heldByReason) {
    if (!r.phase().active()) {
      clusters.remove(r.id());
      held.remove(r.id());
      pausedByFailures.remove(r.id());
      return;
    }
    Map<Step, Long> counts = new EnumMap<>(Step.class);
    for (Member m : r.members().values()) {
      counts.merge(m.step(), 1L, Long::sum);
    }
    clusters.put(r.id(), counts);
    held.put(r.id(), Map.copyOf(heldByReason));
    pausedByFailures.put(
        r.id(),
        r.phase() == Phase.Paused
            && r.message() != null
            && r.message().contains("exceed the budget"));
  }

  /**
   * Fleet-wide counts, refreshed by the engine (one replica) so that sums across replicas do not
   * double count.
   */
  void fleet(Map<String, Long> byStatus, Map<String, Long> byPhase, long unresolvedPairs) {
    unresolved.set(unresolvedPairs);
    clustersByStatus.clear();
    clustersByStatus.putAll(byStatus);
    subscriptionsByPhase.clear();
    byPhase.forEach(
        (phase, n) ->
            subscriptionsByPhase.merge(PHASES.contains(phase) ? phase : "other", n, Long::sum));
  }

  void stepped(List<Transition> transitions, long nanos) {
    stepTimer.record(nanos, TimeUnit.NANOSECONDS);
    counted(transitions);
  }

  private void counted(List<Transition> transitions) {
    for (Transition t : transitions) {
      counter(KINDS.contains(t.kind()) ? t.kind() : "other").increment();
    }
  }

  private Counter commandCounter(String command) {
    return Counter.builder("olmstead.rollout.commands")
        .tag("command", command)
        .description("Operator commands applied to rollouts")
        .register(registry);
  }

  private Counter counter(String kind) {
    return Counter.builder("olmstead.rollout.transitions")
        .tag("kind", kind)
        .description("Rollout state transitions")
        .register(registry);
  }
}
