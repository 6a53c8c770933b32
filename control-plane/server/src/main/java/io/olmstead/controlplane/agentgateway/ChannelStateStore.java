package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.controlplane.db.DbTime;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The gateway's per-cluster rows: session attach/detach, desired generations and presence in {@code
 * clusters}.
 */
final class ChannelStateStore {
  // One statement (one round trip): record the session and mark the cluster connected. A session
  // older than the stored one (its attach waited on the database while the agent reconnected, here
  // or elsewhere) changes nothing and gets no row back, whichever write lands last. connected_at
  // ($8) is read from the control plane's clock, the one the rollout engine compares it with.
  private static final String ATTACH =
      "WITH attached AS (INSERT INTO agent_channel_state (cluster, session, replica, connected_at, "
          + "session_order) VALUES ($1, $2, $3, $8, $7) ON CONFLICT (cluster) DO UPDATE SET "
          + "session = EXCLUDED.session, replica = EXCLUDED.replica, connected_at = EXCLUDED.connected_at, "
          + "session_order = EXCLUDED.session_order "
          + "WHERE agent_channel_state.session_order IS NULL "
          + "OR agent_channel_state.session_order <= EXCLUDED.session_order "
          + "RETURNING last_status_seq), "
          + "seen AS (UPDATE clusters SET status = 'connected', last_seen = now(), agent_version = $4, "
          + "kubernetes_version = coalesce($5, kubernetes_version), "
          // the agent's facts replace its last ones; what the HyperShift watcher knows
          // (facts.hypershift) stays
          + "facts = $6 || jsonb_strip_nulls(jsonb_build_object('hypershift', facts->'hypershift')) "
          + "WHERE name = $1 AND EXISTS (SELECT 1 FROM attached)) "
          + "SELECT last_status_seq FROM attached";
  // a retired cluster (its HostedCluster deleted) stays retired when the connection its revocation
  // cut closes
  private static final String DETACH =
      "UPDATE clusters SET status = 'disconnected', last_seen = now() WHERE name = $1 AND status <> 'retired' "
          + "AND EXISTS "
          + "(SELECT 1 FROM agent_channel_state WHERE cluster = $1 AND session = $2)";
  // Multi-row writers of clusters lock their rows in name order first (like the pool's handovers),
  // so two of them
  // (a replica's presence tick, another's detach, a handover batch) wait on each other but never
  // deadlock.
  private static final String DETACH_ALL =
      "UPDATE clusters c SET status = 'disconnected', last_seen = now() FROM agent_channel_state s, "
          + "(SELECT name FROM clusters WHERE name = ANY($2) AND status <> 'retired' ORDER BY name FOR UPDATE) l "
          + "WHERE l.name = c.name AND s.cluster = c.name AND s.replica = $1";
  private static final String GENERATIONS =
      "UPDATE agent_channel_state s SET desired_generation = CASE WHEN s.desired_hash IS DISTINCT FROM u.hash "
          + "THEN s.desired_generation + 1 ELSE s.desired_generation END, desired_hash = u.hash "
          + "FROM unnest($1::text[], $2::text[]) AS u(cluster, hash) WHERE s.cluster = u.cluster "
          + "RETURNING s.cluster, s.desired_generation";
  // Rows of agent_channel_state are locked in cluster order by every multi-row writer (status
  // batches, desired
  // generations), so two of them can wait on each other's rows but never deadlock.
  private static final String LOCK_IN_ORDER =
      "SELECT 1 FROM agent_channel_state WHERE cluster = ANY($1) ORDER BY cluster FOR UPDATE";
  // Presence is a lease per replica: one row renewed each tick (rows of replicas gone a day are
  // dropped). A cluster
  // row is written only when its status changes, never per heartbeat.
  private static final String RENEW =
      "WITH gone AS (DELETE FROM gateway_replicas WHERE seen_at < now() - interval "
          + "'1 day') INSERT INTO gateway_replicas (replica, seen_at) VALUES ($1, now()) "
          + "ON CONFLICT (replica) DO UPDATE SET seen_at = now()";
  // Clusters heard but not marked connected (swept while this replica was paused or cut off):
  // connected again.
  private static final String SEEN =
      "UPDATE clusters c SET last_seen = now(), status = 'connected' FROM "
          + "(SELECT name FROM clusters WHERE name = ANY($1) AND status NOT IN ('retired', 'connected') ORDER BY name "
          + "FOR UPDATE) l WHERE l.name = c.name";
  // Connected clusters whose replica's lease is older than the window (or, with no lease, heard
  // last before it).
  private static final String SWEEP =
      "UPDATE clusters c SET status = 'disconnected', last_seen = l.seen FROM "
          + "(SELECT x.name, coalesce(r.seen_at, x.last_seen) AS seen FROM clusters x "
          + "LEFT JOIN agent_channel_state s ON s.cluster = x.name LEFT JOIN gateway_replicas r ON r.replica = s.replica "
          + "WHERE x.status = 'connected' AND coalesce(r.seen_at, x.last_seen) < now() - make_interval(secs => $1) "
          + "ORDER BY x.name FOR UPDATE OF x) l WHERE l.name = c.name AND c.status = 'connected'";
  // Subscriptions this cluster reported before and that are not gone: their reports are still taken
  // (being removed).
  private static final String REPORTED =
      "SELECT subscription FROM subscription_status WHERE cluster = $1 AND NOT gone";
  private static final String APPROVALS =
      "SELECT subscription, bundle FROM cluster_approvals WHERE cluster = $1";
  private static final String APPROVALS_OF =
      "SELECT cluster, subscription, bundle FROM cluster_approvals WHERE cluster = ANY($1)";

  private final Pool pool;
  private final Pool presence;
  private final Clock clock;

  /** One pool for everything; {@code clock}: when a session attached ({@code connected_at}). */
  ChannelStateStore(Pool pool, Clock clock) {
    this(pool, pool, clock);
  }

  /**
   * {@code presence}: the pool the presence tick's statements ({@link #renew}, {@link #seen},
   * {@link #sweep}) run on, apart from the attaches, publishes and approvals of {@code pool}.
   */
  ChannelStateStore(Pool pool, Pool presence, Clock clock) {
    this.pool = pool;
    this.presence = presence;
    this.clock = clock;
  }

  /**
   * What a new session starts from: the last status seq applied and the subscriptions with live
   * reports.
   */
  record Attached(long lastStatusSeq, Set<String> reported) {}

  /**
   * Records a new session (its {@code order} from {@link CredentialStore#open}) for a cluster and
   * marks it connected; empty (nothing changed) when a later session holds the cluster already.
   */
  Future<Optional<Attached>> attach(
      String cluster, String session, String replica, long order, Hello hello) {
    Facts facts = hello.facts() == null ? new Facts(null, null, null, null) : hello.facts();
    JsonObject factsJson = JsonObject.mapFrom(facts);
    Future<Optional<Long>> seq =
        pool.preparedQuery(ATTACH)
            .execute(
                Tuple.of(
                    cluster,
                    session,
                    replica,
                    hello.agentVersion(),
                    facts.kubernetesVersion(),
                    factsJson,
                    order,
                    DbTime.now(clock)))
            .map(
                rows ->
                    rows.size() == 0
                        ? Optional.empty()
                        : Optional.of(rows.iterator().next().getLong(0)));
    Future<Set<String>> reported =
        pool.preparedQuery(REPORTED)
            .execute(Tuple.of(cluster))
            .map(
                rows -> {
                  Set<String> names = new HashSet<>();
                  rows.forEach(r -> names.add(r.getString(0)));
                  return names;
                });
    return Future.all(seq, reported)
        .map(v -> seq.result().map(last -> new Attached(last, reported.result())));
  }

  /** Marks the cluster disconnected unless a newer session (on any replica) took over. */
  Future<Void> detach(String cluster, String session) {
    return pool.preparedQuery(DETACH).execute(Tuple.of(cluster, session)).mapEmpty();
  }

  /**
   * At shutdown: marks the clusters whose newest session is on this replica disconnected, in one
   * statement.
   */
  Future<Void> detachAll(String replica, List<String> clusters) {
    return clusters.isEmpty()
        ? Future.succeededFuture()
        : pool.preparedQuery(DETACH_ALL)
            .execute(
                Tuple.tuple().addString(replica).addArrayOfString(clusters.toArray(String[]::new)))
            .mapEmpty();
  }

  /**
   * Stores each cluster's desired-state hash, bumping its generation when the hash changed; returns
   * generations.
   */
  Future<Map<String, Long>> generations(List<String> clusters, List<String> hashes) {
    return pool.withTransaction(
            tx ->
                lockInOrder(tx, clusters)
                    .compose(
                        v ->
                            tx.preparedQuery(GENERATIONS)
                                .execute(
                                    Tuple.tuple()
                                        .addArrayOfString(clusters.toArray(String[]::new))
                                        .addArrayOfString(hashes.toArray(String[]::new)))))
        .map(
            rows -> {
              Map<String, Long> out = new HashMap<>();
              for (Row row : rows) {
                out.put(row.getString(0), row.getLong(1));
              }
              return out;
            });
  }

  /** Locks the clusters' rows in cluster order, within the caller's transaction. */
  static Future<Void> lockInOrder(SqlConnection tx, Collection<String> clusters) {
    return clusters.isEmpty()
        ? Future.succeededFuture()
        : tx.preparedQuery(LOCK_IN_ORDER)
            .execute(Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new)))
            .mapEmpty();
  }

  /**
   * Renews this replica's presence lease: its connected clusters stay connected while it is
   * renewed.
   */
  Future<Void> renew(String replica) {
    return presence.preparedQuery(RENEW).execute(Tuple.of(replica)).mapEmpty();
  }

  Future<Void> seen(List<String> clusters) {
    return clusters.isEmpty()
        ? Future.succeededFuture()
        : presence
            .preparedQuery(SEEN)
            .execute(Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new)))
            .mapEmpty();
  }

  /**
   * Marks every cluster (of any replica) silent for longer than the window disconnected; returns
   * how many.
   */
  Future<Integer> sweep(int windowSeconds) {
    return presence
        .preparedQuery(SWEEP)
        .execute(Tuple.of((double) windowSeconds))
        .map(rows -> rows.rowCount());
  }

  Future<Map<String, String>> approvals(String cluster) {
    return pool.preparedQuery(APPROVALS)
        .execute(Tuple.of(cluster))
        .map(
            rows -> {
              Map<String, String> out = new HashMap<>();
              rows.forEach(r -> out.put(r.getString(0), r.getString(1)));
              return out;
            });
  }

  /** The approvals of each of these clusters that has any: cluster, then subscription to bundle. */
  Future<Map<String, Map<String, String>>> approvalsOf(List<String> clusters) {
    return pool.preparedQuery(APPROVALS_OF)
        .execute(Tuple.of(clusters.toArray(String[]::new)))
        .map(
            rows -> {
              Map<String, Map<String, String>> out = new HashMap<>();
              rows.forEach(
                  r ->
                      out.computeIfAbsent(r.getString(0), c -> new HashMap<>())
                          .put(r.getString(1), r.getString(2)));
              return out;
            });
  }
}
