package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the other targets of a multi-target rollout say to one of them (pure). Target {@code index}
 * approves a cluster only once every earlier target (its providers, in dependency order) that has
 * the cluster Succeeded there; while one has not, the cluster waits ({@value #WAITING}); when one
 * failed there (Failed, Blocked, StillFailed, RolledBack), the cluster is held ({@value
 * #PROVIDER_FAILED}, naming the provider that failed first) and settles Blocked, never approved, so
 * the failure counts once, where it happened. A wave succeeds only once the later targets' members
 * of its clusters in that wave or an earlier one have settled. A target whose sibling ended rolls
 * back with it (RolledBack), aborts with it (Aborted, Failed), and pauses while one is paused.
 */
record TargetGroup(int index, List<Row> rows) {
  static final String WAITING = "WaitingForProvider";
  static final String PROVIDER_FAILED = "ProviderFailed";

  /** A rollout of one subscription: nothing to wait for. */
  static final TargetGroup NONE = new TargetGroup(0, List.of());

  TargetGroup {
    rows = List.copyOf(rows);
  }

  /** One target of the group: its rollout's state and each member's wave, step and message. */
  record Row(
      int index,
      String rollout,
      String subscription,
      String targetVersion,
      Phase phase,
      Map<String, Member> members) {}

  /** A member of a sibling target as this one needs it. */
  record Member(int wave, Step step, String message) {}

  enum Kind {
    GO,
    WAIT,
    HOLD
  }

  /**
   * Whether a cluster may be approved for this target now, and the member's message when it may
   * not.
   */
  record Gate(Kind kind, String message) {
    static final Gate GO = new Gate(Kind.GO, null);
  }

  /** The gate of {@code cluster}: the first earlier target that has not Succeeded there decides. */
  Gate gate(String cluster) {
    for (Row row : rows) {
      if (row.index() >= index) {
        break;
      }
      Member m = row.members().get(cluster);
      if (m == null || m.step() == Step.Succeeded) {
        continue;
      }
      if (m.step() == Step.Pending || m.step() == Step.Progressing) {
        return new Gate(
            Kind.WAIT,
            WAITING
                + ": "
                + row.subscription()
                + " moves to "
                + row.targetVersion()
                + " on this cluster first");
      }
      if (m.message() != null && m.message().startsWith(PROVIDER_FAILED + ": ")) {
        return new Gate(
            Kind.HOLD, m.message()); // the provider's own provider failed: name the first failure
      }
      return new Gate(
          Kind.HOLD,
          PROVIDER_FAILED
              + ": "
              + row.subscription()
              + " did not reach "
              + row.targetVersion()
              + " on this cluster ("
              + m.step()
              + (m.message() == null ? "" : ": " + m.message())
              + ")");
    }
    return Gate.GO;
  }

  /**
   * Whether every later target's member of {@code clusters} in wave {@code wave} or before has
   * settled.
   */
  boolean laterSettled(int wave, Collection<String> clusters) {
    for (Row row : rows) {
      if (row.index() <= index) {
        continue;
      }
      for (String c : clusters) {
        Member m = row.members().get(c);
        if (m != null && m.wave() <= wave && !m.step().settled()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The provider a cluster's reason names: the subscription after {@code ProviderFailed: } (null:
   * not held).
   */
  static String provider(String message) {
    String prefix =
        message == null
            ? null
            : message.startsWith(PROVIDER_FAILED + ": ")
                ? PROVIDER_FAILED
                : message.startsWith(WAITING + ": ") ? WAITING : null;
    if (prefix == null) {
      return null;
    }
    String rest = message.substring(prefix.length() + 2);
    int space = rest.indexOf(' ');
    return space < 0 ? rest : rest.substring(0, space);
  }

  /**
   * What {@code r} (this target, active) does because a sibling ended or paused: roll back, abort
   * or pause with it; empty when nothing.
   */
  Optional<StepResult> follow(Rollout r) {
    for (Row row : rows) {
      if (row.index() == index) {
        continue;
      }
      String why =
          "with target "
              + row.subscription()
              + " (rollout "
              + row.rollout()
              + ", "
              + row.phase()
              + ")";
      List<Transition> t = new ArrayList<>();
      switch (row.phase()) {
        case RolledBack -> {
          return Optional.of(RolloutMachine.rollBack(r, "rolled back " + why, t));
        }
        case Aborted, Failed -> {
          t.add(new Transition("Aborted", null, null, "aborted " + why));
          return Optional.of(
              new StepResult(
                  r.with(
                      Phase.Aborted,
                      r.waves(),
                      r.members(),
                      r.acceptedFailures(),
                      false,
                      "aborted " + why),
                  t));
        }
        case Paused -> {
          if (r.phase() == Phase.Progressing) {
            t.add(new Transition("Paused", null, null, "paused " + why));
            return Optional.of(
                new StepResult(
                    r.with(
                        Phase.Paused,
                        r.waves(),
                        r.members(),
                        r.acceptedFailures(),
                        false,
                        "paused " + why),
                    t));
          }
        }
        default -> {}
      }
    }
    return Optional.empty();
  }
}
