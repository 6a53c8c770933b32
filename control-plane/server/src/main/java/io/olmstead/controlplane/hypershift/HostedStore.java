package io.olmstead.controlplane.hypershift;

import io.olmstead.controlplane.agentgateway.CredentialStore;
import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.clusters.Cluster;
import io.olmstead.controlplane.clusters.ClusterStore;
import io.olmstead.controlplane.hypershift.Decision.Kind;
import io.olmstead.controlplane.hypershift.Known.Holder;
import io.olmstead.controlplane.hypershift.Known.Identity;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Applies the watcher's decisions through the cluster store: what is known is read with the rows
 * locked, the pure {@link Decider} decides, and the change is written in the same transaction with
 * its audit entry (actor {@value #ACTOR}), so an admin's concurrent label patch or a token
 * enrollment of the same name is never lost. Every writing transaction starts with the watcher's
 * leader fence, so a watcher deposed without its knowing (its lock session ended on the database
 * side) writes nothing and steps down.
 */
final class HostedStore {
  static final String ACTOR = "hypershift";
  private static final String IDENTITY =
      "SELECT cluster_id, cluster_name, retired_at IS NOT NULL AS retired, labels"
          + " FROM hosted_clusters WHERE cluster_id = $1 FOR UPDATE";
  private static final String HOLDER_ID =
      "SELECT cluster_id FROM hosted_clusters WHERE cluster = $1";
  private static final String LIVE =
      "SELECT cluster_id FROM hosted_clusters WHERE retired_at IS NULL";
  private static final String LINK =
      "INSERT INTO hosted_clusters (cluster_id, cluster_name, cluster, namespace, name,"
          + " labels) VALUES ($1, $2, $2, $3, $4, $5) ON CONFLICT (cluster_id) DO UPDATE SET cluster_name = $2,"
          + " cluster = $2, namespace = $3, name = $4, labels = $5, retired_at = NULL";
  private static final String CHANGE =
      "UPDATE clusters SET labels = $2, facts = facts || $3, status = CASE WHEN $4"
          + " THEN 'pending' ELSE status END, resource_version = resource_version + 1, updated_at = now() WHERE name = $1";
  private static final String RETIRE_CLUSTER =
      "UPDATE clusters c SET status = 'retired', resource_version ="
          + " c.resource_version + 1, updated_at = now() FROM hosted_clusters h WHERE h.cluster_id = $1"
          + " AND c.name = h.cluster AND c.status <> 'retired' RETURNING c.name";

  /**
   * Skips that need a person to change the HostedCluster (not the normal wait for it to become
   * ready).
   */
  static final Set<String> BAD_INPUT =
      Set.of("malformed", "invalid-name", "invalid-labels", "too-many-labels");

  /**
   * The agent gateway's change channel (V4); {@value #ENROLLED_CHANGE} changes wake the hosted
   * agent pool.
   */
  private static final String NOTIFY_ENROLLED = "SELECT pg_notify('olmstead_agent_changes', $1)";

  static final String ENROLLED_CHANGE = "hosted";
  private static final String RETIRE_ID =
      "UPDATE hosted_clusters SET retired_at = now() WHERE cluster_id = $1";

  private final Pool pool;
  private final Function<SqlConnection, Future<Void>> fence;
  private final ClusterStore clusters = new ClusterStore();

  /**
   * {@code fence}: the first statement of each writing transaction ({@code LeaderLock#fence} of the
   * watcher's lock).
   */
  HostedStore(Pool pool, Function<SqlConnection, Future<Void>> fence) {
    this.pool = pool;
    this.fence = fence;
  }

  /**
   * Decides about a HostedCluster that exists and applies the decision; returns it. Conflicts and
   * bad input are written to the audit log only when {@code fresh} says so (the watcher tells when
   * the reason changed), so a resync does not repeat them.
   */
  Future<Decision> reconcile(
      HostedCluster hc, boolean kubeconfigPresent, Instant now, Predicate<Decision> fresh) {
    if (hc.clusterId() == null) {
      Decision decision = Decider.decide(hc, kubeconfigPresent, Known.NOTHING, now);
      if (!fresh.test(decision)) {
        return Future.succeededFuture(decision); // nothing to write: no transaction at all
      }
    }
    return pool.withTransaction(
        conn ->
            fence
                .apply(conn)
                .compose(f -> decide(conn, new Input(hc, kubeconfigPresent, fresh), now)));
  }

  /**
   * One HostedCluster to decide, whether its kubeconfig secret is there, and whether a skip is
   * news.
   */
  record Input(HostedCluster hc, boolean kubeconfigPresent, Predicate<Decision> fresh) {}

  /**
   * Decides and applies many HostedClusters in one transaction, in order: a burst of HostedClusters
   * turning Available costs one commit, not one each. If it fails, nothing of it is kept; the
   * caller applies them one by one so that a bad one fails alone.
   */
  Future<List<Decision>> reconcileAll(List<Input> inputs, Instant now) {
    if (inputs.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    // decided in the order of the cluster names they map to, so that their clusters rows are locked
    // in name order
    // like every other multi-row writer of clusters (presence ticks, handovers): waits, never a
    // deadlock
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      order.add(i);
    }
    order.sort(
        Comparator.comparing(
            i -> String.valueOf(HostedLabels.clusterName(inputs.get(i).hc()).value())));
    return pool.withTransaction(
        conn ->
            fence
                .apply(conn)
                .compose(
                    f -> {
                      Decision[] decisions = new Decision[inputs.size()];
                      Future<Void> chain = Future.succeededFuture();
                      for (int i : order) {
                        chain =
                            chain.compose(
                                v ->
                                    decide(conn, inputs.get(i), now)
                                        .map(
                                            d -> {
                                              decisions[i] = d;
                                              return null;
                                            }));
                      }
                      return chain.map(v -> List.of(decisions));
                    }));
  }

  private Future<Decision> decide(SqlConnection conn, Input input, Instant now) {
    HostedCluster hc = input.hc();
    if (hc.clusterId() == null) {
      Decision decision = Decider.decide(hc, input.kubeconfigPresent(), Known.NOTHING, now);
      return apply(conn, hc, decision, input.fresh().test(decision)).map(decision);
    }
    return identity(conn, hc.clusterId())
        .compose(
            identity -> {
              Optional<String> name =
                  identity
                      .map(Identity::cluster)
                      .or(() -> Optional.ofNullable(HostedLabels.clusterName(hc).value()));
              return (name.isEmpty()
                      ? Future.succeededFuture(Optional.<Holder>empty())
                      : holder(conn, name.get()))
                  .compose(
                      holder -> {
                        Decision decision =
                            Decider.decide(
                                hc, input.kubeconfigPresent(), new Known(identity, holder), now);
                        return apply(conn, hc, decision, input.fresh().test(decision))
                            .map(decision);
                      });
            });
  }

  /** Retires the cluster of a clusterID whose HostedCluster is gone; returns the decision. */
  Future<Decision> gone(String clusterId) {
    return pool.withTransaction(
        conn ->
            fence
                .apply(conn)
                .compose(f -> identity(conn, clusterId))
                .compose(
                    identity -> {
                      if (identity.isEmpty()) {
                        return Future.succeededFuture(
                            Decision.ignore(
                                null, "unknown", "clusterID " + clusterId + " was never enrolled"));
                      }
                      Decision decision = Decider.gone(identity.get());
                      return decision.kind() == Kind.RETIRE
                          ? retire(conn, clusterId, decision, null).map(decision)
                          : Future.succeededFuture(decision);
                    }));
  }

  /** The clusterIDs enrolled and not retired. */
  Future<List<String>> liveIds() {
    return pool.query(LIVE)
        .execute()
        .map(
            rows -> {
              List<String> ids = new ArrayList<>();
              rows.forEach(row -> ids.add(row.getString(0)));
              return ids;
            });
  }

  private Future<Void> apply(SqlConnection conn, HostedCluster hc, Decision d, boolean fresh) {
    return switch (d.kind()) {
      case ENROLL -> enroll(conn, hc, d);
      case UPDATE ->
          conn.preparedQuery(CHANGE)
              .execute(
                  Tuple.of(
                      d.cluster(),
                      labels(d.labels()),
                      new JsonObject().put(HostedLabels.FACTS_KEY, d.facts()),
                      false))
              .compose(v -> link(conn, hc, d))
              .compose(v -> audit(conn, hc, d, "hypershift.update", AuditEntry.SUCCESS));
      case RETIRE -> retire(conn, hc.clusterId(), d, hc);
      case CONFLICT ->
          fresh
              ? audit(conn, hc, d, "hypershift.enroll", AuditEntry.DENIED)
              : Future.succeededFuture();
      case IGNORE ->
          fresh && BAD_INPUT.contains(d.reason()) ? skipped(conn, hc, d) : Future.succeededFuture();
      case UNCHANGED -> Future.succeededFuture();
    };
  }

  private Future<Void> enroll(SqlConnection conn, HostedCluster hc, Decision d) {
    JsonObject facts = new JsonObject().put(HostedLabels.FACTS_KEY, d.facts());
    Future<Void> written =
        switch (d.mode()) {
          case REVIVE ->
              conn.preparedQuery(CHANGE)
                  .execute(Tuple.of(d.cluster(), labels(d.labels()), facts, true))
                  .mapEmpty();
          // the retired row of another clusterID gives way; its identity row stays, unlinked, and
          // the audit log keeps
          // its enrollment and retirement
          case REPLACE ->
              clusters
                  .delete(conn, d.cluster())
                  .compose(
                      v ->
                          clusters.insert(
                              conn, d.cluster(), labels(d.labels()), "pending", null, null, facts))
                  .mapEmpty();
          case NEW ->
              clusters
                  .insert(conn, d.cluster(), labels(d.labels()), "pending", null, null, facts)
                  .mapEmpty();
        };
    return written
        .compose(v -> link(conn, hc, d))
        .compose(v -> audit(conn, hc, d, "hypershift.enroll", AuditEntry.SUCCESS))
        // at commit, every replica's gateway hears of it and its pool hands the cluster over now,
        // not next round
        .compose(
            v ->
                conn.preparedQuery(NOTIFY_ENROLLED)
                    .execute(Tuple.of(ENROLLED_CHANGE + ":" + d.cluster())))
        .mapEmpty();
  }

  private Future<Void> retire(SqlConnection conn, String clusterId, Decision d, HostedCluster hc) {
    return conn.preparedQuery(RETIRE_CLUSTER)
        .execute(Tuple.of(clusterId))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture();
              }
              // the clusters trigger (V8) announces the change to the gateways and the event stream
              return CredentialStore.revoke(conn, d.cluster()).mapEmpty();
            })
        .compose(v -> conn.preparedQuery(RETIRE_ID).execute(Tuple.of(clusterId)))
        .compose(
            v ->
                Audit.record(
                    conn,
                    new AuditEntry(
                        ACTOR,
                        "hypershift.retire",
                        "clusters/" + d.cluster(),
                        AuditEntry.SUCCESS,
                        detail(hc, d).put("clusterID", clusterId),
                        null)));
  }

  /**
   * A HostedCluster that cannot be enrolled as it is, recorded against the HostedCluster (it has no
   * cluster).
   */
  private static Future<Void> skipped(SqlConnection conn, HostedCluster hc, Decision d) {
    return Audit.record(
        conn,
        new AuditEntry(
            ACTOR,
            "hypershift.skip",
            "hostedclusters/" + hc.key(),
            AuditEntry.FAILURE,
            detail(hc, d),
            null));
  }

  private static Future<Void> link(SqlConnection conn, HostedCluster hc, Decision d) {
    return conn.preparedQuery(LINK)
        .execute(
            Tuple.of(hc.clusterId(), d.cluster(), hc.namespace(), hc.name(), labels(d.managed())))
        .mapEmpty();
  }

  private static Future<Void> audit(
      SqlConnection conn, HostedCluster hc, Decision d, String action, String outcome) {
    JsonObject detail = detail(hc, d);
    if (d.labels() != null) {
      detail.put("labels", labels(d.labels()));
    }
    if (d.mode() != null) {
      detail.put("mode", d.mode().name().toLowerCase(Locale.ROOT));
    }
    return Audit.record(
        conn, new AuditEntry(ACTOR, action, "clusters/" + d.cluster(), outcome, detail, null));
  }

  private static JsonObject detail(HostedCluster hc, Decision d) {
    JsonObject detail = new JsonObject().put("reason", d.reason());
    if (d.detail() != null) {
      detail.put("detail", d.detail());
    }
    if (hc != null) {
      detail.put("hostedCluster", hc.key()).put("clusterID", hc.clusterId());
    }
    return detail;
  }

  private static Future<Optional<Identity>> identity(SqlConnection conn, String clusterId) {
    return conn.preparedQuery(IDENTITY)
        .execute(Tuple.of(clusterId))
        .map(
            rows -> {
              if (rows.size() == 0) {
                return Optional.empty();
              }
              Row row = rows.iterator().next();
              return Optional.of(
                  new Identity(
                      row.getString("cluster_id"),
                      row.getString("cluster_name"),
                      row.getBoolean("retired"),
                      strings(row.getJsonObject("labels"))));
            });
  }

  private Future<Optional<Holder>> holder(SqlConnection conn, String name) {
    return clusters
        .findForUpdate(conn, name)
        .compose(
            found -> {
              if (found.isEmpty()) {
                return Future.succeededFuture(Optional.empty());
              }
              Cluster c = found.get();
              return conn.preparedQuery(HOLDER_ID)
                  .execute(Tuple.of(name))
                  .map(
                      rows ->
                          Optional.of(
                              new Holder(
                                  c.name(),
                                  c.status(),
                                  c.labelMap(),
                                  c.facts(),
                                  rows.size() == 0 ? null : rows.iterator().next().getString(0))));
            });
  }

  private static JsonObject labels(Map<String, String> labels) {
    JsonObject json = new JsonObject();
    labels.forEach(json::put);
    return json;
  }

  private static Map<String, String> strings(JsonObject json) {
    Map<String, String> map = new TreeMap<>();
    if (json != null) {
      json.forEach(e -> map.put(e.getKey(), String.valueOf(e.getValue())));
    }
    return map;
  }
}
