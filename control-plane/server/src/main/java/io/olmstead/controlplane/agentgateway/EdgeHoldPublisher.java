package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.db.DbTime;
import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.edgerisk.EdgeRiskRule;
import io.olmstead.controlplane.edgerisk.EdgeRiskStore;
import io.olmstead.controlplane.edgerisk.EdgeRisksModule;
import io.olmstead.controlplane.edgerisk.Evidence;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads and writes of the edge holds a desired-state run applies ({@link EdgeHoldFilter}
 * decides): the versions the clusters run of the packages with a failure on record (none: nothing
 * else is read), the evidence of the failing risks of the edges from those versions, their facts
 * and the acceptances; after the run, the holds of its clusters in {@code subscription_edge_holds},
 * which the fleet matrix and the cluster views read.
 */
final class EdgeHoldPublisher {
  private static final String INSTALLED =
      "SELECT st.cluster, st.subscription, s.package, st.installed_version FROM subscription_status st "
          + "JOIN subscriptions s ON s.name = st.subscription WHERE st.cluster = ANY($1) AND NOT st.gone "
          + "AND st.installed_version IS NOT NULL AND s.package = ANY($2)";
  private static final String ANY_HELD =
      "SELECT EXISTS (SELECT 1 FROM subscription_edge_holds) AS held";
  // the run's clusters' holds less those it keeps (a hashed set difference), deleted by key
  private static final String RELEASE =
      "DELETE FROM subscription_edge_holds h USING (SELECT cluster, subscription FROM "
          + "subscription_edge_holds WHERE cluster = ANY($1) EXCEPT SELECT * FROM unnest($2::text[], $3::text[])) "
          + "AS gone(cluster, subscription) WHERE h.cluster = gone.cluster AND h.subscription = gone.subscription";
  // a hold on the same risk keeps the time it began; an unchanged hold is not written
  private static final String HOLD =
      "INSERT INTO subscription_edge_holds AS h (cluster, subscription, risk_id, "
          + "from_version, to_version, message, held_at) SELECT k.*, $7 FROM unnest($1::text[], $2::text[], $3::text[], "
          + "$4::text[], $5::text[], $6::text[]) AS k ON CONFLICT (cluster, subscription) DO UPDATE SET "
          + "risk_id = EXCLUDED.risk_id, from_version = EXCLUDED.from_version, to_version = EXCLUDED.to_version, "
          + "message = EXCLUDED.message, held_at = CASE WHEN h.risk_id = EXCLUDED.risk_id THEN h.held_at "
          + "ELSE EXCLUDED.held_at END WHERE (h.risk_id, h.from_version, h.to_version, h.message) "
          + "IS DISTINCT FROM (EXCLUDED.risk_id, EXCLUDED.from_version, EXCLUDED.to_version, EXCLUDED.message)";

  private final Pool pool;
  private final EdgeRiskStore store = new EdgeRiskStore();
  private final List<String> labels;
  private final EdgeRiskRule.Params params;
  private final Clock clock;

  EdgeHoldPublisher(Pool pool, EdgeRiskSettings settings, Clock clock) {
    this.pool = pool;
    this.labels = settings.labels();
    this.params = EdgeRisksModule.params(settings);
    this.clock = clock;
  }

  /**
   * What the holds of {@code clusters} are decided on ({@link EdgeHoldFilter.Inputs#NONE} without
   * evidence): the failing packages, the versions the clusters run of them, the evidence of the
   * failing risks of the edges from those versions only, the clusters' facts and the acceptances.
   */
  Future<EdgeHoldFilter.Inputs> load(List<String> clusters) {
    Instant now = clock.instant();
    if (clusters.isEmpty()) {
      return Future.succeededFuture(EdgeHoldFilter.Inputs.NONE);
    }
    Future<List<Installed>> installed =
        store
            .failingPackages(pool)
            .compose(
                packages ->
                    packages.isEmpty()
                        ? Future.succeededFuture(List.of())
                        : installed(clusters, packages));
    Future<List<Evidence>> evidence =
        installed.compose(
            runs ->
                store.onFailingRisks(
                    pool,
                    runs.stream().map(Installed::pkg).toArray(String[]::new),
                    runs.stream().map(Installed::version).toArray(String[]::new)));
    return evidence.compose(
        found ->
            found.isEmpty()
                ? Future.succeededFuture(EdgeHoldFilter.Inputs.NONE)
                : decidedOn(found, installed.result(), now));
  }

  private Future<List<Installed>> installed(List<String> clusters, List<String> packages) {
    return pool.preparedQuery(INSTALLED)
        .execute(
            Tuple.tuple()
                .addArrayOfString(clusters.toArray(String[]::new))
                .addArrayOfString(packages.toArray(String[]::new)))
        .map(
            rows -> {
              List<Installed> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new Installed(
                              r.getString("cluster"),
                              r.getString("subscription"),
                              r.getString("package"),
                              r.getString("installed_version"))));
              return out;
            });
  }

  private Future<EdgeHoldFilter.Inputs> decidedOn(
      List<Evidence> evidence, List<Installed> runs, Instant now) {
    Map<String, Map<String, String>> installed = new HashMap<>();
    runs.forEach(
        r ->
            installed
                .computeIfAbsent(r.cluster(), k -> new HashMap<>())
                .put(r.subscription(), r.version()));
    Future<Map<String, EdgeFacts>> facts =
        store.facts(pool, List.copyOf(installed.keySet()), labels);
    List<String> risks = evidence.stream().map(Evidence::riskId).distinct().toList();
    Future<Map<String, Map<String, Instant>>> accepted =
        store
            .acceptances(pool, risks)
            .map(
                all -> {
                  Map<String, Map<String, Instant>> out = new HashMap<>();
                  all.forEach(
                      a ->
                          out.computeIfAbsent(a.riskId(), k -> new HashMap<>())
                              .put(a.team(), a.at()));
                  return out;
                });
    return Future.all(facts, accepted)
        .map(
            v ->
                new EdgeHoldFilter.Inputs(
                    evidence, installed, facts.result(), accepted.result(), now, params));
  }

  /** A version a cluster runs of a subscription of a package with a failure on record. */
  private record Installed(String cluster, String subscription, String pkg, String version) {}

  /** Stores the holds of a run over {@code clusters} (those not held any more are released). */
  Future<Void> save(List<String> clusters, List<ClusterHeld> held) {
    Future<Boolean> any =
        held.isEmpty()
            ? pool.query(ANY_HELD).execute().map(rows -> rows.iterator().next().getBoolean("held"))
            : Future.succeededFuture(true);
    return any.compose(
        some ->
            !some
                ? Future.succeededFuture()
                : pool.withTransaction(
                    tx -> {
                      String[] heldClusters =
                          held.stream().map(ClusterHeld::cluster).toArray(String[]::new);
                      String[] subs =
                          held.stream().map(h -> h.held().subscription()).toArray(String[]::new);
                      Future<Void> released =
                          tx.preparedQuery(RELEASE)
                              .execute(
                                  Tuple.of(
                                      (Object) clusters.toArray(String[]::new),
                                      (Object) heldClusters,
                                      (Object) subs))
                              .mapEmpty();
                      if (held.isEmpty()) {
                        return released;
                      }
                      List<Object> args =
                          new ArrayList<>(
                              List.of(
                                  heldClusters,
                                  subs,
                                  held.stream().map(h -> h.held().riskId()).toArray(String[]::new),
                                  held.stream().map(h -> h.held().from()).toArray(String[]::new),
                                  held.stream().map(h -> h.held().to()).toArray(String[]::new),
                                  held.stream().map(h -> h.held().message()).toArray(String[]::new),
                                  DbTime.now(clock)));
                      return released
                          .compose(v -> tx.preparedQuery(HOLD).execute(Tuple.wrap(args)))
                          .mapEmpty();
                    }));
  }

  /** A hold of one cluster. */
  record ClusterHeld(String cluster, EdgeHoldFilter.Held held) {}
}
