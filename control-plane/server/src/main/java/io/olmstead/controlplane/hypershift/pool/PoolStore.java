package io.olmstead.controlplane.hypershift.pool;

import io.olmstead.controlplane.agentgateway.CredentialStore;
import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The pool's rows: live pool replicas, the hosted clusters to serve, and each cluster's handover
 * (credential).
 */
final class PoolStore {
  private static final String AUTHENTICATE =
      "SELECT id FROM pool_tokens WHERE token_hash = $1 AND revoked_at IS NULL";
  // a name held by a live connection (kept alive within the window, with a live token) stays with
  // it
  private static final String JOIN =
      "INSERT INTO pool_members (member, token_id, replica, session) "
          + "VALUES ($1, $2, $3, $4) ON CONFLICT (member) DO UPDATE SET token_id = EXCLUDED.token_id, "
          + "replica = EXCLUDED.replica, session = EXCLUDED.session, last_seen = now() "
          + "WHERE pool_members.last_seen < now() - make_interval(secs => $5) OR NOT EXISTS (SELECT 1 FROM pool_tokens t "
          + "WHERE t.id = pool_members.token_id AND t.revoked_at IS NULL) RETURNING session";
  // only connections whose row is still theirs and whose pool token is still live are kept alive
  private static final String HEARTBEAT =
      "UPDATE pool_members m SET last_seen = now() FROM pool_tokens t "
          + "WHERE t.id = m.token_id AND t.revoked_at IS NULL AND m.session = ANY($1) RETURNING m.session";
  private static final String LEAVE = "DELETE FROM pool_members WHERE member = $1 AND session = $2";
  private static final String FORGET_SILENT =
      "DELETE FROM pool_members WHERE last_seen < now() - make_interval(secs => $1)";
  private static final String LIVE =
      "SELECT member FROM pool_members m JOIN pool_tokens t ON t.id = m.token_id "
          + "WHERE t.revoked_at IS NULL AND m.last_seen >= now() - make_interval(secs => $1)";
  private static final String HOSTED =
      "SELECT c.name, h.namespace, h.name, "
          + "c.facts #>> '{hypershift,controlPlaneNamespace}', a.member FROM hosted_clusters h "
          + "JOIN clusters c ON c.name = h.cluster LEFT JOIN pool_assignments a ON a.cluster = c.name "
          + "WHERE c.status <> 'retired'";
  // locked in name order, so two replicas' overlapping batches cannot deadlock
  private static final String LOCK_CLUSTERS =
      "SELECT c.name FROM clusters c JOIN hosted_clusters h ON h.cluster = c.name"
          + " WHERE c.name = ANY($1) AND c.status <> 'retired' ORDER BY c.name FOR UPDATE OF c";
  private static final String ASSIGN =
      "INSERT INTO pool_assignments (cluster, member) VALUES ($1, $2) "
          + "ON CONFLICT (cluster) DO UPDATE SET member = EXCLUDED.member, handed_over_at = now()";

  private final Pool pool;

  PoolStore(Pool pool) {
    this.pool = pool;
  }

  /** The pool token's id when the presented secret is a live pool token. */
  Future<Optional<UUID>> authenticate(String secret) {
    return pool.preparedQuery(AUTHENTICATE)
        .execute(Tuple.of(Buffer.buffer(Tokens.hash(secret))))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(rows.iterator().next().getUUID(0)));
  }

  /**
   * Registers a pool replica's connection under its name; false (nothing changed) when a live
   * connection holds the name: one kept alive within {@code liveSeconds} under a token that is not
   * revoked. A connection closed or dropped as silent has no row any more; one whose control plane
   * replica died stops being kept alive.
   */
  Future<Boolean> join(
      String member, UUID tokenId, String replica, String session, int liveSeconds) {
    return pool.preparedQuery(JOIN)
        .execute(Tuple.of(member, tokenId, replica, session, (double) liveSeconds))
        .map(rows -> rows.size() > 0);
  }

  /**
   * Keeps the given connections alive; returns those still theirs (a newer connection or a revoked
   * token ends one).
   */
  Future<Set<String>> heartbeat(List<String> sessions) {
    if (sessions.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    return pool.preparedQuery(HEARTBEAT)
        .execute(Tuple.tuple().addArrayOfString(sessions.toArray(String[]::new)))
        .map(
            rows -> {
              Set<String> kept = new HashSet<>();
              rows.forEach(r -> kept.add(r.getString(0)));
              return kept;
            });
  }

  Future<Void> leave(String member, String session) {
    return pool.preparedQuery(LEAVE).execute(Tuple.of(member, session)).mapEmpty();
  }

  /** Live replicas, the hosted clusters to serve and whom each was last handed to. */
  Future<Snapshot> snapshot(int liveSeconds) {
    Tuple window = Tuple.of((double) liveSeconds);
    return pool.preparedQuery(FORGET_SILENT)
        .execute(window)
        .compose(v -> pool.preparedQuery(LIVE).execute(window))
        .compose(
            live ->
                pool.preparedQuery(HOSTED)
                    .execute()
                    .map(
                        hosted -> {
                          List<String> members = new ArrayList<>();
                          live.forEach(r -> members.add(r.getString(0)));
                          Map<String, Target> targets = new HashMap<>();
                          Map<String, String> handedTo = new HashMap<>();
                          for (Row r : hosted) {
                            targets.put(
                                r.getString(0),
                                new Target(
                                    r.getString(0),
                                    r.getString(1),
                                    r.getString(2),
                                    r.getString(3)));
                            if (r.getString(4) != null) {
                              handedTo.put(r.getString(0), r.getString(4));
                            }
                          }
                          return new Snapshot(members, targets, handedTo);
                        }));
  }

  /**
   * Hands hosted clusters to a pool replica in one transaction: records the replica, issues each a
   * fresh agent credential (which revokes the previous one: the former holder's copy stops working
   * and its connection is closed) and audits each. Clusters retired or gone meanwhile are left out
   * of the result (cluster to credential). Every statement is one round trip for the whole batch,
   * so a replica taking over hundreds of clusters costs a few transactions rather than one each.
   */
  Future<Map<String, String>> handOver(List<String> clusters, String member) {
    if (clusters.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    Tuple names = Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new));
    return pool.withTransaction(
        tx ->
            tx.preparedQuery(LOCK_CLUSTERS)
                .execute(names)
                .compose(
                    rows -> {
                      Set<String> present = new HashSet<>();
                      rows.forEach(r -> present.add(r.getString(0)));
                      List<String> kept = clusters.stream().filter(present::contains).toList();
                      if (kept.isEmpty()) {
                        return Future.succeededFuture(Map.<String, String>of());
                      }
                      List<Tuple> assigned = new ArrayList<>(kept.size());
                      List<AuditEntry> audited = new ArrayList<>(kept.size());
                      JsonObject detail = new JsonObject().put("replica", member);
                      for (String cluster : kept) {
                        assigned.add(Tuple.of(cluster, member));
                        audited.add(
                            AuditEntry.system(
                                "pool:" + member,
                                "pool.handover",
                                "clusters/" + cluster,
                                AuditEntry.SUCCESS,
                                detail));
                      }
                      return tx.preparedQuery(ASSIGN)
                          .executeBatch(assigned)
                          .compose(v -> CredentialStore.issueAll(tx, kept, null))
                          .compose(credentials -> Audit.recordAll(tx, audited).map(credentials));
                    }));
  }

  /** A hosted cluster as a pool replica needs it: where its kubeconfig secrets are. */
  record Target(String cluster, String namespace, String name, String controlPlaneNamespace) {
    JsonObject toJson() {
      return new JsonObject()
          .put("cluster", cluster)
          .put("namespace", namespace)
          .put("name", name)
          .put("controlPlaneNamespace", controlPlaneNamespace);
    }
  }

  /** What one assignment round reads. */
  record Snapshot(
      List<String> members, Map<String, Target> targets, Map<String, String> handedTo) {}
}
