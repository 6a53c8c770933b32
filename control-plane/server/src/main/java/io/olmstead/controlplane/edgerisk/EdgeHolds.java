package io.olmstead.controlplane.edgerisk;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which clusters about to take an upgrade edge wait because the edge failed on clusters with the
 * same facts (pure). Evidence of every team counts; the reason names the risk, the edge, the facts
 * and the counts, never another team's clusters.
 */
public final class EdgeHolds {
  /** The reason code a held cluster shows ({@code rollout.ClusterReason}). */
  public static final String EDGE_AT_RISK = "EdgeAtRisk";

  /** A cluster about to go from {@code from} to the target, with its facts now. */
  public record Candidate(String cluster, String from, EdgeFacts facts) {}

  /** A held cluster: the risk that holds it and the reason line. */
  public record Hold(String riskId, String message) {}

  /** The holds of nobody (no evidence on these edges). */
  public static final Map<String, Hold> NONE = Map.of();

  private EdgeHolds() {}

  /**
   * The held clusters among {@code candidates} taking {@code pkg} to {@code to}; {@code evidence}
   * is every team's on those edges, {@code accepted} the newest acceptance per risk id that applies
   * to the team moving the clusters.
   */
  public static Map<String, Hold> decide(
      String pkg,
      String to,
      List<Candidate> candidates,
      List<Evidence> evidence,
      Map<String, Instant> accepted,
      Instant now,
      EdgeRiskRule.Params params) {
    if (evidence.isEmpty()) {
      return NONE;
    }
    Map<String, List<Evidence>> byRisk =
        evidence.stream().collect(Collectors.groupingBy(Evidence::riskId));
    Map<String, Hold> out = new LinkedHashMap<>();
    for (Candidate c : candidates) {
      if (c.from() == null || c.from().equals(to)) {
        continue; // a first install or no move: no edge to take
      }
      String id = c.facts().riskId(pkg, c.from(), to);
      List<Evidence> own = byRisk.get(id);
      if (own == null) {
        continue;
      }
      EdgeRiskRule.Assessment a =
          EdgeRiskRule.assess(
              own.stream().map(Evidence::observation).toList(), now, accepted.get(id), params);
      if (a.holds()) {
        out.put(c.cluster(), new Hold(id, message(id, pkg, c.from(), to, c.facts(), a)));
      }
    }
    return out;
  }

  /** The edges' from-versions the candidates would take (what evidence to read). */
  public static Set<String> froms(List<Candidate> candidates, String to) {
    return candidates.stream()
        .map(Candidate::from)
        .filter(f -> f != null && !f.equals(to))
        .collect(Collectors.toSet());
  }

  static String message(
      String id, String pkg, String from, String to, EdgeFacts facts, EdgeRiskRule.Assessment a) {
    return EDGE_AT_RISK
        + " (risk "
        + id
        + ": "
        + pkg
        + " "
        + from
        + " -> "
        + to
        + " failed on "
        + a.failures()
        + (a.failures() == 1 ? " cluster" : " clusters")
        + " and succeeded on "
        + a.successes()
        + " with matching facts "
        + facts.describe()
        + "; accept with POST /api/v1/edge-risks/"
        + id
        + "/accept)";
  }

  /** The risk id a hold's message names (null: the message is not a hold's). */
  public static String riskOf(String message) {
    String prefix = EDGE_AT_RISK + " (risk ";
    if (message == null || !message.startsWith(prefix)) {
      return null;
    }
    int end = message.indexOf(':', prefix.length());
    return end < 0 ? null : message.substring(prefix.length(), end);
  }
}
