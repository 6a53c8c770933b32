package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * Exchanges an enrollment token for a cluster credential in one transaction: the token use is
 * counted, the cluster created (or, with a token bound to its name, re-enrolled), the token's
 * labels applied over the agent's, the credential issued and the audit entry written. Any failure
 * rolls the token use back. The team label comes only from the token, and re-enrolling never moves
 * a cluster into another team.
 */
final class Enrollment {
  private static final String FIND_TOKEN =
      "SELECT id::text, labels, cluster_name FROM enrollment_tokens WHERE token_hash = $1 AND revoked_at IS NULL "
          + "AND expires_at > now()";
  // facts.hypershift is the HyperShift watcher's (HostedStore), never the agent's: dropped from
  // what the agent sends
  private static final String CREATE_CLUSTER =
      "INSERT INTO clusters (name, labels, status, facts, kubernetes_version) "
          + "VALUES ($1, $2, 'pending', $3::jsonb - 'hypershift', $4) ON CONFLICT (name) DO NOTHING RETURNING name";
  // $5: the token's team; re-enrolling never moves a cluster into another team (nor into one from
  // none)
  private static final String REENROLL_CLUSTER =
      "UPDATE clusters SET labels = labels || $2, "
          // the agent's facts replace its last ones; what the HyperShift watcher knows
          // (facts.hypershift) stays
          + "facts = ($3::jsonb - 'hypershift') "
          + "|| jsonb_strip_nulls(jsonb_build_object('hypershift', facts->'hypershift')), "
          + "kubernetes_version = coalesce($4, kubernetes_version), "
          + "resource_version = resource_version + 1 WHERE name = $1 "
          + "AND ($5::text IS NULL OR labels ->> '"
          + Principal.TEAM_LABEL
          + "' IS NOT DISTINCT FROM $5) "
          + "RETURNING labels";
  // A (re-)enrolled cluster numbers its status reports afresh: a seq stuck near the top (a buggy or
  // hostile agent)
  // must not stop the cluster's reports for good.
  private static final String CHANNEL_STATE =
      "WITH state AS (INSERT INTO agent_channel_state (cluster) VALUES ($1) ON CONFLICT (cluster) "
          + "DO UPDATE SET last_status_seq = 0 RETURNING cluster) "
          + "UPDATE subscription_status SET seq = 0 WHERE cluster = (SELECT cluster FROM state)";

  private static final String USED_UP =
      "the enrollment token is unknown, expired, revoked or used up";

  // A fleet enrolling at once must leave the pool's connections to subscription changes and status
  // batches: with more at a time, a PUT waited 22 s for a connection behind enrollments.
  static final int MAX_CONCURRENT = 2;
  // An enrollment is unauthenticated until its token is checked: the wait is bounded, and one past
  // it is a 503 the agent retries with backoff (about 2 s of enrollments at 4 ms each).
  static final int MAX_WAITING = 1000;

  private final Pool pool;
  private final AsyncLimit limit = new AsyncLimit(MAX_CONCURRENT, MAX_WAITING);

  Enrollment(Pool pool) {
    this.pool = pool;
  }

  /** The outcome: a credential, or a refusal with its HTTP status and problem code. */
  record Result(String credential, JsonObject labels, int status, String code, String detail) {
    static Result refused(int status, String code, String detail) {
      return new Result(null, null, status, code, detail);
    }

    boolean enrolled() {
      return credential != null;
    }
  }

  /**
   * {@code requestId}: the enrollment request's id, for the audit row (null when there is none).
   */
  Future<Result> enroll(
      String token, String clusterName, JsonObject labels, JsonObject facts, String requestId) {
    return limit
        .run(() -> transaction(token, clusterName, labels, facts, requestId))
        .recover(
            e ->
                e instanceof AsyncLimit.Full
                    ? Future.succeededFuture(
                        Result.refused(
                            503,
                            "enrollment-busy",
                            MAX_WAITING
                                + " enrollments wait on this replica already; try again shortly"))
                    : Future.failedFuture(e));
  }

  private Future<Result> transaction(
      String token, String clusterName, JsonObject labels, JsonObject facts, String requestId) {
    return pool.withTransaction(
            tx ->
                tx.preparedQuery(FIND_TOKEN)
                    .execute(Tuple.of(Buffer.buffer(Tokens.hash(token))))
                    .compose(
                        rows -> {
                          if (rows.size() == 0) {
                            return Future.succeededFuture(
                                Result.refused(401, "unauthorized", USED_UP));
                          }
                          Row row = rows.iterator().next();
                          String boundName = row.getString("cluster_name");
                          if (boundName != null && !boundName.equals(clusterName)) {
                            return Future.failedFuture(
                                new Refusal(
                                    Result.refused(
                                        403,
                                        "forbidden",
                                        "this enrollment token is bound to another cluster name")));
                          }
                          JsonObject tokenLabels =
                              row.getJsonObject("labels") == null
                                  ? new JsonObject()
                                  : row.getJsonObject("labels");
                          String team = tokenLabels.getString(Principal.TEAM_LABEL);
                          Object claimed = labels.getValue(Principal.TEAM_LABEL);
                          if (claimed != null && !claimed.equals(team)) {
                            // an agent does not choose its team: only the enrollment token an admin
                            // made (or a PATCH) does
                            return Future.failedFuture(
                                new Refusal(
                                    Result.refused(
                                        403,
                                        "forbidden",
                                        "label "
                                            + Principal.TEAM_LABEL
                                            + " comes from the enrollment token, not from the agent")));
                          }
                          JsonObject merged = labels.copy().mergeIn(tokenLabels);
                          String tokenId = row.getString("id");
                          return TokenUses.take(tx, tokenId, clusterName)
                              .compose(
                                  taken ->
                                      taken
                                          ? enrollCluster(
                                              tx,
                                              tokenId,
                                              boundName != null,
                                              clusterName,
                                              merged,
                                              team,
                                              facts,
                                              requestId)
                                          : Future.failedFuture(
                                              new Refusal(
                                                  Result.refused(401, "unauthorized", USED_UP))));
                        }))
        .recover(
            e ->
                e instanceof Refusal r ? Future.succeededFuture(r.result) : Future.failedFuture(e));
  }

  private Future<Result> enrollCluster(
      SqlConnection tx,
      String tokenId,
      boolean bound,
      String name,
      JsonObject labels,
      String team,
      JsonObject facts,
      String requestId) {
    String kubernetesVersion = facts.getValue("kubernetesVersion") instanceof String s ? s : null;
    return tx.preparedQuery(CREATE_CLUSTER)
        .execute(Tuple.of(name, labels, facts, kubernetesVersion))
        .compose(
            created -> {
              if (created.size() > 0) {
                return Future.succeededFuture(labels);
              }
              if (!bound) {
                // Taking over an existing name needs a token an admin bound to exactly that name.
                return Future.failedFuture(
                    new Refusal(
                        Result.refused(
                            409,
                            "conflict",
                            "cluster "
                                + name
                                + " is already enrolled; re-enrolling it needs an enrollment token bound to that name")));
              }
              return tx.preparedQuery(REENROLL_CLUSTER)
                  .execute(Tuple.of(name, labels, facts, kubernetesVersion, team))
                  .compose(
                      rows ->
                          rows.size() == 1
                              ? Future.succeededFuture(
                                  rows.iterator().next().getJsonObject("labels"))
                              : Future.failedFuture(
                                  new Refusal(
                                      Result.refused(
                                          403,
                                          "forbidden",
                                          "cluster "
                                              + name
                                              + " is not in team "
                                              + team
                                              + "; enrollment never moves a cluster into another team"))));
            })
        // the clusters triggers of V8 announce the new or re-enrolled cluster on the event stream
        // at commit
        .compose(
            applied ->
                tx.preparedQuery(CHANNEL_STATE)
                    .execute(Tuple.of(name))
                    .compose(v -> CredentialStore.issue(tx, name, tokenId))
                    .compose(
                        credential ->
                            Audit.record(
                                    tx,
                                    new AuditEntry(
                                        "enrollment-token:" + tokenId,
                                        "agent.enroll",
                                        "clusters/" + name,
                                        AuditEntry.SUCCESS,
                                        new JsonObject().put("labels", applied),
                                        requestId))
                                .map(new Result(credential, applied, 201, null, null))));
  }

  /** Rolls the transaction back while carrying the refusal to the caller. */
  private static final class Refusal extends RuntimeException {
    private final transient Result result;

    Refusal(Result result) {
      super(result.detail(), null, false, false);
      this.result = result;
    }
  }
}
