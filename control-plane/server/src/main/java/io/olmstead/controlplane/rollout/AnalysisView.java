package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.analysis.AnalysisCheck;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Status;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Tally;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.Wave;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What the rollout's analysis checks have measured so far (read before a step; the step stays
 * pure): per wave, check and cluster, the check's status there, its tally, the last value and the
 * query as sent.
 */
record AnalysisView(AnalysisPolicy policy, Map<Key, Entry> entries) {
  static final AnalysisView NONE = new AnalysisView(AnalysisPolicy.NONE, Map.of());

  AnalysisView {
    entries = Map.copyOf(entries);
  }

  /** Where a check was measured. */
  record Key(int wave, String check, String cluster) {}

  /** A check's standing on one cluster. */
  record Entry(
      Status status,
      Tally tally,
      Double lastValue,
      String reason,
      String query,
      Instant measuredAt) {}

  /** A measurement to take now: where, and of which check. */
  record Due(Key key, AnalysisCheck check, Tally before) {}

  /**
   * The measurements due at {@code now} (pure): on every cluster of a soaking wave that runs the
   * target, each check still running, {@code intervalSeconds} after the wave began soaking or after
   * its last measurement. Only while the rollout progresses.
   */
  static List<Due> due(Rollout r, Map<Key, Entry> entries, Instant now) {
    List<Due> out = new ArrayList<>();
    if (r.phase() != Phase.Progressing) {
      return out;
    }
    for (Wave w : r.waves()) {
      if (w.state() != WaveState.Soaking || w.soakingSince() == null) {
        continue;
      }
      for (Member m : r.members().values()) {
        if (m.wave() != w.index() || m.step() != Step.Succeeded) {
          continue;
        }
        for (AnalysisCheck check : r.strategy().analysis().checks()) {
          if (!check.resolved()) {
            continue;
          }
          Key key = new Key(w.index(), check.name(), m.cluster());
          Entry e = entries.get(key);
          Instant from = e == null ? w.soakingSince() : e.measuredAt();
          if ((e == null || e.status() == Status.RUNNING)
              && !now.isBefore(from.plusSeconds(check.intervalSeconds()))) {
            out.add(new Due(key, check, e == null ? Tally.NONE : e.tally()));
          }
        }
      }
    }
    return out;
  }

  /** A check that ended without passing, where. */
  record Ended(Key key, Entry entry, AnalysisCheck check) {}

  /**
   * Whether every check passed on every one of {@code clusters} (true when the strategy has no
   * check).
   */
  boolean passed(int wave, List<String> clusters) {
    for (AnalysisCheck check : policy.checks()) {
      for (String cluster : clusters) {
        Entry e = entries.get(new Key(wave, check.name(), cluster));
        if (e == null || e.status() != Status.PASSED) {
          return false;
        }
      }
    }
    return true;
  }

  /** The checks that failed or were inconclusive, by wave, check order, then cluster. */
  List<Ended> ended() {
    List<String> order = policy.checks().stream().map(AnalysisCheck::name).toList();
    return entries.entrySet().stream()
        .filter(
            e ->
                e.getValue().status() == Status.FAILED
                    || e.getValue().status() == Status.INCONCLUSIVE)
        .filter(e -> order.contains(e.getKey().check()))
        .map(
            e ->
                new Ended(
                    e.getKey(),
                    e.getValue(),
                    policy.checks().get(order.indexOf(e.getKey().check()))))
        .sorted(
            Comparator.<Ended>comparingInt(e -> e.key().wave())
                .thenComparingInt(e -> order.indexOf(e.key().check()))
                .thenComparing(e -> e.key().cluster()))
        .toList();
  }

  /**
   * The history line of an ended check: the check, the cluster, the query as sent, the value and
   * the condition.
   */
  static String describe(Ended e) {
    String value =
        e.entry().lastValue() == null ? "no value" : String.valueOf(e.entry().lastValue());
    return "analysis "
        + e.check().name()
        + (e.entry().status() == Status.FAILED ? " failed" : " inconclusive")
        + " on cluster "
        + e.key().cluster()
        + ": "
        + e.entry().query()
        + " = "
        + value
        + " (successIf "
        + e.check().successIf()
        + "; "
        + e.entry().tally().failures()
        + " failed, "
        + e.entry().tally().inconclusives()
        + " inconclusive of "
        + e.entry().tally().measurements()
        + "; last: "
        + e.entry().reason()
        + ")";
  }
}
