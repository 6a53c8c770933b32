package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.Wave;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log lines for saved rollout transitions: one INFO line per change of the rollout's state or of a
 * wave's (a few per rollout), one DEBUG line per cluster step (thousands per rollout in a large
 * fleet), each naming the rollout, the subscription, the state before and after, and the reason.
 */
final class RolloutTransitions {
  private static final Logger LOG = LoggerFactory.getLogger(RolloutTransitions.class);

  private RolloutTransitions() {}

  /** One line to log: INFO or DEBUG. */
  record Line(boolean info, String text) {}

  static void log(Rollout before, StepResult result) {
    for (Line line : lines(before, result)) {
      if (line.info()) {
        LOG.info("{}", line.text());
      } else {
        LOG.debug("{}", line.text());
      }
    }
  }

  /** The lines for one saved step or command (pure: what {@link #log} writes). */
  static List<Line> lines(Rollout before, StepResult result) {
    Rollout after = result.rollout();
    String prefix = "rollout " + after.id() + " subscription " + after.subscription();
    List<Line> out = new ArrayList<>();
    for (Transition t : result.transitions()) {
      String reason = t.message() == null ? t.kind() : t.kind() + ": " + t.message();
      if (t.cluster() != null) {
        out.add(
            new Line(
                false,
                prefix
                    + " cluster "
                    + t.cluster()
                    + ": "
                    + step(before, t.cluster())
                    + " -> "
                    + step(after, t.cluster())
                    + " ("
                    + reason
                    + ")"));
      } else if (t.wave() != null) {
        out.add(
            new Line(
                true,
                prefix
                    + " wave "
                    + t.wave()
                    + ": "
                    + wave(before, t.wave())
                    + " -> "
                    + wave(after, t.wave())
                    + " ("
                    + reason
                    + ")"));
      } else {
        out.add(
            new Line(
                true,
                prefix + ": " + before.phase() + " -> " + after.phase() + " (" + reason + ")"));
      }
    }
    return out;
  }

  private static String step(Rollout r, String cluster) {
    Member m = r.members().get(cluster);
    return m == null ? "absent" : m.step().name();
  }

  private static String wave(Rollout r, String name) {
    return r.waves().stream()
        .filter(w -> name.equals(w.name()))
        .findFirst()
        .map(Wave::state)
        .map(Enum::name)
        .orElse("absent");
  }
}
