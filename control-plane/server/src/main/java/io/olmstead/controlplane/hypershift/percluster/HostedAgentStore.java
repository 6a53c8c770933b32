package io.olmstead.controlplane.hypershift.percluster;

import io.olmstead.controlplane.agentgateway.CredentialStore;
import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The rows per-cluster agents need: every hypershift-enrolled cluster, and issuing one's agent
 * credential.
 */
final class HostedAgentStore {
  private static final String HOSTED =
      "SELECT c.name, h.namespace, h.name, "
          + "c.facts #>> '{hypershift,controlPlaneNamespace}', c.status = 'retired', cc.credential_hash "
          + "FROM hosted_clusters h JOIN clusters c ON c.name = h.cluster "
          + "LEFT JOIN cluster_credentials cc ON cc.cluster = c.name AND cc.revoked_at IS NULL";
  private static final String LOCK_CLUSTER =
      "SELECT c.name FROM clusters c JOIN hosted_clusters h ON h.cluster = c.name"
          + " WHERE c.name = $1 AND c.status <> 'retired' FOR UPDATE OF c";

  private final Pool pool;

  HostedAgentStore(Pool pool) {
    this.pool = pool;
  }

  /**
   * A hypershift-enrolled cluster: its HostedCluster, its hosted control plane namespace, whether
   * it is retired and the hash of its live agent credential (null: none).
   */
  record Hosted(
      String cluster,
      String namespace,
      String name,
      String controlPlaneNamespace,
      boolean retired,
      byte[] credentialHash) {
    /** Whether the presented credential is this cluster's live one. */
    boolean live(String credential) {
      return credentialHash != null && Arrays.equals(credentialHash, Tokens.hash(credential));
    }
  }

  Future<List<Hosted>> hosted() {
    return pool.preparedQuery(HOSTED)
        .execute()
        .map(
            rows -> {
              List<Hosted> all = new ArrayList<>();
              for (Row r : rows) {
                all.add(
                    new Hosted(
                        r.getString(0),
                        r.getString(1),
                        r.getString(2),
                        r.getString(3),
                        r.getBoolean(4),
                        r.getBuffer(5) == null ? null : r.getBuffer(5).getBytes()));
              }
              return all;
            });
  }

  /**
   * Issues a fresh agent credential for a live hosted cluster (revoking the earlier one, whose
   * session the gateway then closes) and audits it; empty when the cluster was retired meanwhile.
   */
  Future<Optional<String>> issue(String cluster, String namespace) {
    return pool.withTransaction(
        tx ->
            tx.preparedQuery(LOCK_CLUSTER)
                .execute(Tuple.of(cluster))
                .compose(
                    rows -> {
                      if (rows.size() == 0) {
                        return Future.succeededFuture(Optional.<String>empty());
                      }
                      return CredentialStore.issue(tx, cluster, null)
                          .compose(
                              credential ->
                                  Audit.record(
                                          tx,
                                          AuditEntry.system(
                                              "hypershift",
                                              "hypershift.agent-credential",
                                              "clusters/" + cluster,
                                              AuditEntry.SUCCESS,
                                              new JsonObject()
                                                  .put("namespace", namespace)
                                                  .put("agents", "per-cluster")))
                                      .map(v -> Optional.of(credential)));
                    }));
  }
}
