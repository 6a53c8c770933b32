package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.edgerisk.EdgeRecorder;
import io.olmstead.controlplane.edgerisk.EdgeRiskRule;
import io.olmstead.controlplane.edgerisk.EdgeRiskStore;
import io.olmstead.controlplane.edgerisk.EdgeRisksModule;
import io.olmstead.controlplane.edgerisk.Evidence;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rollout engine's edge-risk hook (I/O only; the decisions are {@link EdgeHolds} and {@link
 * EdgeRiskRule}): before a step, the pending clusters of the waves that may open are looked up
 * against every team's evidence on the edges they would take; after a step, the clusters that
 * failed (their install, or an analysis check while running the target) or succeeded on an edge are
 * recorded with their facts, in the step's transaction and audited there.
 */
final class EdgeRiskGate {
  private static final String PACKAGE = "SELECT package FROM subscriptions WHERE name = $1";
  private final EdgeRiskStore store = new EdgeRiskStore();
  private final EdgeRecorder recorder;
  private final List<String> labels;
  private final EdgeRiskRule.Params params;

  EdgeRiskGate(EdgeRiskSettings settings) {
    this.recorder = new EdgeRecorder(settings);
    this.labels = settings.labels();
    this.params = EdgeRisksModule.params(settings);
  }

  /** The holds on the rollout's pending clusters of {@code team}'s subscription at {@code now}. */
  Future<Map<String, EdgeHolds.Hold>> prepare(
      SqlClient client, Rollout rollout, String team, Instant now) {
    if (rollout.phase() != Phase.Progressing) {
      return Future.succeededFuture(EdgeHolds.NONE);
    }
    List<Member> pending =
        PreflightGate.pendingOfNextWave(rollout).stream()
            .map(c -> rollout.members().get(c))
            .filter(
                m ->
                    m.previousVersion() != null
                        && !m.previousVersion().equals(rollout.targetVersion()))
            .toList();
    if (pending.isEmpty()) {
      return Future.succeededFuture(EdgeHolds.NONE);
    }
    Set<String> froms = new HashSet<>(pending.stream().map(Member::previousVersion).toList());
    return packageOf(client, rollout)
        .compose(
            pkg ->
                pkg == null
                    ? Future.succeededFuture(EdgeHolds.NONE)
                    : store
                        .onEdges(client, pkg, rollout.targetVersion(), froms)
                        .compose(
                            evidence ->
                                evidence.isEmpty()
                                    ? Future.succeededFuture(EdgeHolds.NONE)
                                    : holds(client, rollout, team, pkg, pending, evidence, now)));
  }

  private Future<Map<String, EdgeHolds.Hold>> holds(
      SqlClient client,
      Rollout rollout,
      String team,
      String pkg,
      List<Member> pending,
      List<Evidence> evidence,
      Instant now) {
    Set<String> ids = new HashSet<>(evidence.stream().map(Evidence::riskId).toList());
    return Future.all(
            store.facts(client, pending.stream().map(Member::cluster).toList(), labels),
            store.acceptedFor(client, ids, team))
        .map(
            all -> {
              Map<String, EdgeFacts> facts = all.resultAt(0);
              List<EdgeHolds.Candidate> candidates =
                  pending.stream()
                      .filter(m -> facts.containsKey(m.cluster()))
                      .map(
                          m ->
                              new EdgeHolds.Candidate(
                                  m.cluster(), m.previousVersion(), facts.get(m.cluster())))
                      .toList();
              return EdgeHolds.decide(
                  pkg, rollout.targetVersion(), candidates, evidence, all.resultAt(1), now, params);
            });
  }

  /**
   * Records the attempts the step's {@code transitions} tell of (on {@code tx}) and audits them
   * there when any was kept.
   */
  Future<Void> record(
      SqlClient tx,
      Rollout after,
      String team,
      List<Transition> transitions,
      String actor,
      Instant now) {
    List<Transition> attempts =
        transitions.stream().filter(t -> t.cluster() != null && outcome(t) != null).toList();
    if (attempts.isEmpty()) {
      return Future.succeededFuture();
    }
    List<String> clusters = attempts.stream().map(Transition::cluster).distinct().toList();
    return packageOf(tx, after)
        .compose(
            pkg ->
                pkg == null
                    ? Future.succeededFuture()
                    : store
                        .facts(tx, clusters, labels)
                        .compose(
                            facts -> {
                              List<Evidence> batch = new ArrayList<>();
                              for (Transition t : attempts) {
                                Member m = after.members().get(t.cluster());
                                if (m == null
                                    || m.previousVersion() == null
                                    || m.previousVersion().equals(after.targetVersion())
                                    || !facts.containsKey(t.cluster())) {
                                  continue;
                                }
                                batch.add(
                                    new Evidence(
                                        team,
                                        pkg,
                                        m.previousVersion(),
                                        after.targetVersion(),
                                        t.cluster(),
                                        facts.get(t.cluster()),
                                        outcome(t),
                                        t.message(),
                                        "rollouts/" + after.id(),
                                        now));
                              }
                              return recorder
                                  .record(tx, batch)
                                  .compose(
                                      r ->
                                          r.kept() == 0 && r.dropped() == 0
                                              ? Future.succeededFuture()
                                              : Audit.record(
                                                  tx,
                                                  new AuditEntry(
                                                      actor,
                                                      "edgerisk.record",
                                                      "rollouts/" + after.id(),
                                                      AuditEntry.SUCCESS,
                                                      new JsonObject()
                                                          .put("kept", r.kept())
                                                          .put("failures", r.failures())
                                                          .put("dropped", r.dropped()),
                                                      null)));
                            }));
  }

  /**
   * Whether the transition tells of a failed attempt (true), a successful one (false), or neither
   * (null).
   */
  static Boolean outcome(Transition t) {
    return switch (t.kind()) {
      case "ClusterFailed", "AnalysisFailed" -> true;
      case "ClusterSucceeded" -> false;
      default -> null;
    };
  }

  private Future<String> packageOf(SqlClient client, Rollout rollout) {
    return client
        .preparedQuery(PACKAGE)
        .execute(Tuple.of(rollout.subscription()))
        .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getString("package"));
  }
}
