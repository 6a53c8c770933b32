package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.edgerisk.EdgeRiskRule;
import io.olmstead.controlplane.edgerisk.Evidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Holds, in a cluster's desired state, the subscriptions whose next edge is at risk for the
 * cluster's facts (pure): a subscription whose {@code maxVersion} is above the version the cluster
 * runs, that no rollout approved there (a rollout's engine holds its own clusters), is told to stay
 * at the installed version when the edge from it failed on clusters with the same facts ({@link
 * EdgeHolds}, every team's evidence) and no acceptance by the subscription's team (or by everyone)
 * covers the failures.
 */
final class EdgeHoldFilter {
  /** A held subscription of a cluster: the risk, the edge it would have taken, the reason line. */
  record Held(String subscription, String riskId, String from, String to, String message) {}

  /** The desired state after the holds, and the holds. */
  record Applied(List<DesiredSubscription> desired, List<Held> held) {}

  /**
   * What the holds are decided on: the evidence of every risk with a failure on record, the
   * versions each cluster runs (cluster to subscription to version), the clusters' facts, the
   * acceptances (risk to team, {@code *} for everyone, to its time), the time and the rule.
   */
  record Inputs(
      List<Evidence> evidence,
      Map<String, Map<String, String>> installed,
      Map<String, EdgeFacts> facts,
      Map<String, Map<String, Instant>> accepted,
      Instant now,
      EdgeRiskRule.Params params) {
    static final Inputs NONE =
        new Inputs(
            List.of(), Map.of(), Map.of(), Map.of(), Instant.EPOCH, EdgeRiskRule.Params.DEFAULT);

    boolean none() {
      return evidence.isEmpty();
    }

    Map<String, List<Evidence>> byRisk() {
      return evidence.stream().collect(Collectors.groupingBy(Evidence::riskId));
    }
  }

  private final Inputs inputs;
  private final Map<String, List<Evidence>> byRisk;

  EdgeHoldFilter(Inputs inputs) {
    this.inputs = inputs;
    this.byRisk = inputs.byRisk();
  }

  /**
   * {@code desired} of {@code cluster} with its held subscriptions kept where they run; {@code
   * teams}: name to team.
   */
  Applied apply(String cluster, List<DesiredSubscription> desired, Map<String, String> teams) {
    Map<String, String> runs = inputs.installed().get(cluster);
    EdgeFacts facts = inputs.facts().get(cluster);
    if (byRisk.isEmpty() || runs == null || facts == null) {
      return new Applied(desired, List.of());
    }
    List<DesiredSubscription> out = new ArrayList<>(desired.size());
    List<Held> held = new ArrayList<>();
    for (DesiredSubscription d : desired) {
      String from = runs.get(d.name());
      String to = d.maxVersion();
      if (to == null || from == null || from.equals(to) || Boolean.TRUE.equals(d.rollback())) {
        out.add(d);
        continue;
      }
      String id = facts.riskId(d.packageName(), from, to);
      List<Evidence> evidence = byRisk.get(id);
      EdgeHolds.Hold hold =
          evidence == null
              ? null
              : EdgeHolds.decide(
                      d.packageName(),
                      to,
                      List.of(new EdgeHolds.Candidate(cluster, from, facts)),
                      evidence,
                      accepted(id, teams.get(d.name())),
                      inputs.now(),
                      inputs.params())
                  .get(cluster);
      if (hold == null) {
        out.add(d);
        continue;
      }
      held.add(new Held(d.name(), hold.riskId(), from, to, hold.message()));
      out.add(
          new DesiredSubscription(
              d.name(),
              d.catalog(),
              d.catalogDigest(),
              d.packageName(),
              d.channel(),
              d.namespace(),
              d.targetNamespaces(),
              d.approval(),
              d.startingBundle(),
              from,
              d.config(),
              d.crdRemoval(),
              d.generation(),
              d.blockedReason(),
              d.rollback(),
              d.crdUpgradeSafety()));
    }
    return new Applied(held.isEmpty() ? desired : List.copyOf(out), held);
  }

  /**
   * The newest acceptance of {@code riskId} that applies to {@code team} (its own or everyone's),
   * by risk.
   */
  private Map<String, Instant> accepted(String riskId, String team) {
    Map<String, Instant> byTeam = inputs.accepted().get(riskId);
    if (byTeam == null) {
      return Map.of();
    }
    Instant own = byTeam.get(team == null ? "" : team);
    Instant all = byTeam.get("*");
    Instant newest = own == null ? all : all == null || own.isAfter(all) ? own : all;
    Map<String, Instant> out = new HashMap<>();
    if (newest != null) {
      out.put(riskId, newest);
    }
    return out;
  }
}
