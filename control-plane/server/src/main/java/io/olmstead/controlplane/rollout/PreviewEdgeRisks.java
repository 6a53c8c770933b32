package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.edgerisk.EdgeRiskStore;
import io.olmstead.controlplane.edgerisk.EdgeRisksModule;
import io.olmstead.controlplane.edgerisk.Evidence;
import io.olmstead.controlplane.impact.EdgeRisks;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The impact report's risky edges (I/O; the decision is {@link EdgeHolds#decide}, the one the
 * engine holds clusters by): every team's evidence on the edges the clusters would take from their
 * installed version to the target, their facts now and the subscription's team's acceptances, read
 * once for the whole preview.
 */
final class PreviewEdgeRisks implements EdgeRisks {
  private final String target;
  private final Map<String, EdgeHolds.Hold> holds;

  private PreviewEdgeRisks(String target, Map<String, EdgeHolds.Hold> holds) {
    this.target = target;
    this.holds = holds;
  }

  /** {@code froms}: each planned cluster's installed version (absent: nothing installed). */
  static Future<EdgeRisks> load(
      SqlClient client,
      EdgeRiskSettings settings,
      String pkg,
      String team,
      String target,
      Map<String, String> froms,
      Instant now) {
    List<EdgeHolds.Candidate> moving =
        froms.entrySet().stream()
            .filter(e -> e.getValue() != null && !e.getValue().equals(target))
            .map(e -> new EdgeHolds.Candidate(e.getKey(), e.getValue(), null))
            .toList();
    if (moving.isEmpty()) {
      return Future.succeededFuture(new PreviewEdgeRisks(target, EdgeHolds.NONE));
    }
    EdgeRiskStore store = new EdgeRiskStore();
    return store
        .onEdges(client, pkg, target, EdgeHolds.froms(moving, target))
        .compose(
            evidence -> {
              if (evidence.isEmpty()) {
                return Future.succeededFuture(new PreviewEdgeRisks(target, EdgeHolds.NONE));
              }
              Set<String> ids = new HashSet<>(evidence.stream().map(Evidence::riskId).toList());
              Future<Map<String, EdgeFacts>> facts =
                  store.facts(
                      client,
                      moving.stream().map(EdgeHolds.Candidate::cluster).toList(),
                      settings.labels());
              Future<Map<String, Instant>> accepted = store.acceptedFor(client, ids, team);
              return Future.all(facts, accepted)
                  .map(
                      all -> {
                        List<EdgeHolds.Candidate> candidates =
                            moving.stream()
                                .filter(c -> facts.result().containsKey(c.cluster()))
                                .map(
                                    c ->
                                        new EdgeHolds.Candidate(
                                            c.cluster(), c.from(), facts.result().get(c.cluster())))
                                .toList();
                        return new PreviewEdgeRisks(
                            target,
                            EdgeHolds.decide(
                                pkg,
                                target,
                                candidates,
                                evidence,
                                accepted.result(),
                                now,
                                EdgeRisksModule.params(settings)));
                      });
            });
  }

  @Override
  public boolean evaluated() {
    return true;
  }

  @Override
  public JsonArray risks(String cluster, String fromVersion, JsonArray path) {
    EdgeHolds.Hold hold = holds.get(cluster);
    return hold == null
        ? new JsonArray()
        : new JsonArray()
            .add(
                new JsonObject()
                    .put("from", fromVersion)
                    .put("to", target)
                    .put("riskId", hold.riskId())
                    .put("message", hold.message()));
  }
}
