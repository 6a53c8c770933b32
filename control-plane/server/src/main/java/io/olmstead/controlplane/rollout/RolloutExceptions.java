package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Member;
import java.util.List;

/**
 * The message of a rollout that completed with clusters not at its target: how many, and each with
 * its reason.
 */
final class RolloutExceptions {
  /**
   * At most this many clusters are named in the message; the clusters list of the rollout has them
   * all.
   */
  static final int NAMED = 20;

  private static final int REASON_CHARS = 200;

  private RolloutExceptions() {}

  /** "2 of 5 clusters not at 1.1.0: c1 (Blocked: PreflightUnavailable ...); c2 (Failed: ...)". */
  static String describe(String target, int total, List<Member> exceptions) {
    StringBuilder out =
        new StringBuilder()
            .append(exceptions.size())
            .append(" of ")
            .append(total)
            .append(total == 1 ? " cluster" : " clusters")
            .append(" not at ")
            .append(target)
            .append(": ");
    for (int i = 0; i < Math.min(NAMED, exceptions.size()); i++) {
      Member m = exceptions.get(i);
      if (i > 0) {
        out.append("; ");
      }
      out.append(m.cluster()).append(" (").append(m.step().name());
      if (m.message() != null && !m.message().isBlank()) {
        String reason =
            m.message().length() > REASON_CHARS
                ? m.message().substring(0, REASON_CHARS) + "..."
                : m.message();
        out.append(": ").append(reason);
      }
      out.append(')');
    }
    if (exceptions.size() > NAMED) {
      out.append("; and ").append(exceptions.size() - NAMED).append(" more");
    }
    return out.toString();
  }
}
