package io.olmstead.controlplane.edgerisk;

import java.time.Instant;

/**
 * One cluster's last attempt at an upgrade edge of a package, as stored: the team whose
 * subscription took it ({@code ""}: none), the cluster's facts then, whether it failed and why,
 * what observed it (a rollout's id) and when.
 */
public record Evidence(
    String team,
    String pkg,
    String from,
    String to,
    String cluster,
    EdgeFacts facts,
    boolean failed,
    String detail,
    String source,
    Instant at) {
  /** The most of an agent's message kept with the evidence. */
  public static final int MAX_DETAIL = 1024;

  public Evidence {
    team = team == null ? "" : team;
    detail =
        detail == null || detail.length() <= MAX_DETAIL
            ? detail
            : detail.substring(0, MAX_DETAIL - 3) + "...";
  }

  public String riskId() {
    return facts.riskId(pkg, from, to);
  }

  EdgeRiskRule.Observation observation() {
    return new EdgeRiskRule.Observation(failed, at);
  }
}
