package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.preflight.PreflightStore.Verdict;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The preflight verdicts a rollout step sees, and the pure decision on each pending cluster of an
 * opening wave: approve it, wait for its agent's answer, or hold it with a reason ({@code
 * PreflightFailed} in Block mode, {@code PreflightUnavailable} when a connected agent has not
 * answered within the timeout, in any mode). {@code checks} are the control plane's own findings
 * per cluster ({@link MaturityChecks}): each is an error of the verdict.
 */
record PreflightView(
    PreflightPolicy policy, Map<String, Verdict> verdicts, Map<String, JsonArray> checks) {
  static final String FAILED = "PreflightFailed";
  static final String UNAVAILABLE = "PreflightUnavailable";

  /** Nothing to check (preflight Off, or a step outside the engine). */
  static final PreflightView OFF =
      new PreflightView(new PreflightPolicy(PreflightPolicy.Mode.Off, 1), Map.of());

  PreflightView(PreflightPolicy policy, Map<String, Verdict> verdicts) {
    this(policy, verdicts, Map.of());
  }

  /** What to do with one pending cluster now. */
  enum Kind {
    APPROVE,
    WAIT,
    HOLD
  }

  /**
   * The decision; {@code note} is the reason of a hold or the findings an approval goes ahead
   * despite.
   */
  record Decision(Kind kind, String note) {}

  /**
   * The decision for {@code cluster}: connected or not, connected since {@code onlineSince} (null:
   * unknown), at {@code now}. An offline cluster waits without its timeout running, as its progress
   * deadline does.
   */
  Decision decide(String cluster, boolean online, Instant onlineSince, Instant now) {
    if (policy.mode() == PreflightPolicy.Mode.Off) {
      return new Decision(Kind.APPROVE, null);
    }
    JsonArray own = checks.get(cluster);
    if (own == null) {
      return agent(cluster, online, onlineSince, now);
    }
    if (policy.mode() == PreflightPolicy.Mode.Block) {
      return new Decision(
          Kind.HOLD, FAILED + ": " + summary(own)); // failing whatever the agent answers
    }
    Decision agent = agent(cluster, online, onlineSince, now);
    return agent.kind() != Kind.APPROVE
        ? agent
        : new Decision(
            Kind.APPROVE,
            "preflight failed (Warn mode): "
                + summary(own)
                + (agent.note() == null ? "" : "; " + agent.note()));
  }

  /** The decision on the agent's verdict alone. */
  private Decision agent(String cluster, boolean online, Instant onlineSince, Instant now) {
    Verdict v = verdicts.get(cluster);
    if (v == null) {
      return new Decision(Kind.WAIT, null); // asked this step; the answer comes later
    }
    if (v.answered()) {
      String findings = summary(v.findings());
      return switch (v.verdict()) {
        case "Pass" -> new Decision(Kind.APPROVE, null);
        case "Warn" -> new Decision(Kind.APPROVE, "preflight warnings: " + findings);
        default ->
            policy.mode() == PreflightPolicy.Mode.Block
                ? new Decision(Kind.HOLD, FAILED + ": " + findings)
                : new Decision(Kind.APPROVE, "preflight failed (Warn mode): " + findings);
      };
    }
    if (!online) {
      return new Decision(Kind.WAIT, null);
    }
    Instant start =
        onlineSince != null && onlineSince.isAfter(v.requestedAt()) ? onlineSince : v.requestedAt();
    if (!now.isBefore(start.plusSeconds(policy.timeoutSeconds()))) {
      return new Decision(
          Kind.HOLD,
          UNAVAILABLE
              + ": no preflight verdict from the agent within "
              + policy.timeoutSeconds()
              + "s");
    }
    return new Decision(Kind.WAIT, null);
  }

  /** The findings as one line: {@code Code (subject): message; ...}, bounded. */
  static String summary(JsonArray findings) {
    if (findings == null || findings.isEmpty()) {
      return "no findings";
    }
    List<String> parts = new ArrayList<>();
    for (Object o : findings) {
      if (o instanceof JsonObject f) {
        String subject = f.getString("subject");
        parts.add(
            f.getString("code")
                + (subject == null ? "" : " (" + subject + ")")
                + ": "
                + f.getString("message"));
      }
    }
    String line = String.join("; ", parts);
    return line.length() > 1000 ? line.substring(0, 1000) + "..." : line;
  }

  /**
   * The preview's {@code preflight} of one cluster: its verdict (Pending, Unavailable too) and
   * findings.
   */
  JsonObject preview(String cluster, boolean online, Instant now) {
    JsonObject agent = agentPreview(cluster, online, now);
    JsonArray own = checks.get(cluster);
    if (own == null) {
      return agent;
    }
    JsonArray findings = agent.getJsonArray("findings").copy();
    own.forEach(findings::add);
    return new JsonObject().put("verdict", "Fail").put("findings", findings);
  }

  private JsonObject agentPreview(String cluster, boolean online, Instant now) {
    Verdict v = verdicts.get(cluster);
    if (v == null) {
      return new JsonObject().put("verdict", "Pending").put("findings", new JsonArray());
    }
    if (v.answered()) {
      return new JsonObject()
          .put("verdict", v.verdict())
          .put("findings", v.findings() == null ? new JsonArray() : v.findings());
    }
    Decision d = agent(cluster, online, null, now);
    return new JsonObject()
        .put("verdict", d.kind() == Kind.HOLD ? "Unavailable" : "Pending")
        .put("findings", new JsonArray());
  }
}
