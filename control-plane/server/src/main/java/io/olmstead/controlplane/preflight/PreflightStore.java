package io.olmstead.controlplane.preflight;

import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL of {@code preflight_checks} (V23): requests made by a rollout or a preview, the open ones
 * each cluster's desired state carries, the agents' answers (each only for its own cluster and the
 * request it names) and the verdicts.
 */
public final class PreflightStore {
  /**
   * An unanswered request older than this is left out of the desired state (the cluster is held by
   * then).
   */
  public static final Duration OPEN_FOR = Duration.ofMinutes(15);

  /** At most this many requests go to one cluster at once (the protocol's bound). */
  static final int MAX_OPEN_PER_CLUSTER = 2000;

  private static final String REQUEST =
      "INSERT INTO preflight_checks (subscription, cluster, version, requester, "
          + "request_id, bundle) SELECT $1, c, $2, $3, 'pf-' || substr(md5(random()::text || clock_timestamp()::text || c), "
          + "1, 24), $4 FROM unnest($5::text[]) AS c WHERE EXISTS (SELECT 1 FROM clusters WHERE name = c) "
          + "ON CONFLICT (subscription, cluster, version, requester) DO UPDATE SET request_id = EXCLUDED.request_id, "
          + "bundle = EXCLUDED.bundle, requested_at = now(), answered_at = NULL, verdict = NULL, findings = '[]' "
          + "WHERE preflight_checks.requested_at < now() - make_interval(secs => $6)";
  private static final String OPEN =
      "SELECT cluster, subscription, version, request_id, bundle FROM preflight_checks "
          + "WHERE cluster = ANY($1) AND answered_at IS NULL AND requested_at > now() - make_interval(secs => $2) "
          + "ORDER BY cluster, requested_at, request_id";
  private static final String ANSWER =
      "UPDATE preflight_checks SET answered_at = now(), verdict = $5, "
          + "findings = $6 WHERE cluster = $1 AND request_id = $2 AND subscription = $3 AND version = $4 "
          + "AND answered_at IS NULL";
  private static final String FORGET_OTHERS =
      "DELETE FROM preflight_checks WHERE subscription = $1 AND version = $2 "
          + "AND starts_with(requester, $3) AND requester <> $4";
  private static final String VERDICTS =
      "SELECT cluster, requested_at, answered_at, verdict, findings "
          + "FROM preflight_checks WHERE subscription = $1 AND version = $2 AND requester = $3";

  /**
   * What is known of one cluster's check: when it was asked, and the answer (null verdict: none
   * yet).
   */
  public record Verdict(
      Instant requestedAt, Instant answeredAt, String verdict, JsonArray findings) {
    public boolean answered() {
      return verdict != null;
    }
  }

  /**
   * Asks {@code clusters} (those that exist) to check {@code version} of {@code subscription} for
   * {@code requester}; a request already made is renewed only when older than {@code renewAfter}
   * (null: never).
   */
  public Future<Void> request(
      SqlClient client,
      String subscription,
      String version,
      String bundle,
      String requester,
      List<String> clusters,
      Duration renewAfter) {
    if (clusters.isEmpty()) {
      return Future.succeededFuture();
    }
    double renew = renewAfter == null ? 1e12 : renewAfter.toMillis() / 1000.0;
    return client
        .preparedQuery(REQUEST)
        .execute(
            Tuple.of(
                subscription, version, requester, bundle, clusters.toArray(String[]::new), renew))
        .mapEmpty();
  }

  /**
   * Drops the checks of {@code version} of {@code subscription} whose requester starts with {@code
   * prefix} but is not {@code keep} (a preview's checks against an older catalog revision: their
   * answers no longer hold).
   */
  public Future<Void> forgetOthers(
      SqlClient client, String subscription, String version, String prefix, String keep) {
    return client
        .preparedQuery(FORGET_OTHERS)
        .execute(Tuple.of(subscription, version, prefix, keep))
        .mapEmpty();
  }

  /** The open requests of each of {@code clusters}, oldest first, for their desired state. */
  public Future<Map<String, List<PreflightRequest>>> open(SqlClient client, List<String> clusters) {
    return client
        .preparedQuery(OPEN)
        .execute(Tuple.of(clusters.toArray(String[]::new), (double) OPEN_FOR.toSeconds()))
        .map(
            rows -> {
              Map<String, List<PreflightRequest>> out = new HashMap<>();
              for (Row r : rows) {
                List<PreflightRequest> list =
                    out.computeIfAbsent(r.getString("cluster"), k -> new ArrayList<>());
                if (list.size() < MAX_OPEN_PER_CLUSTER) {
                  list.add(
                      new PreflightRequest(
                          r.getString("request_id"),
                          r.getString("subscription"),
                          r.getString("version"),
                          r.getString("bundle")));
                }
              }
              return out;
            });
  }

  /**
   * Records the answer of {@code cluster}'s agent; false when it names no open request of that
   * cluster (a stale, repeated or foreign answer changes nothing).
   */
  public Future<Boolean> answer(SqlClient client, String cluster, Preflight answer) {
    JsonArray findings = new JsonArray();
    for (PreflightFinding f :
        answer.findings() == null ? List.<PreflightFinding>of() : answer.findings()) {
      JsonObject o =
          new JsonObject()
              .put("code", f.code())
              .put("severity", f.severity())
              .put("message", f.message());
      if (f.subject() != null) {
        o.put("subject", f.subject());
      }
      findings.add(o);
    }
    return client
        .preparedQuery(ANSWER)
        .execute(
            Tuple.of(
                cluster,
                answer.requestId(),
                answer.subscription(),
                answer.version(),
                answer.verdict(),
                findings))
        .map(rows -> rows.rowCount() == 1);
  }

  /**
   * Every cluster's check of {@code version} of {@code subscription} made for {@code requester}.
   */
  public Future<Map<String, Verdict>> verdicts(
      SqlClient client, String subscription, String version, String requester) {
    return client
        .preparedQuery(VERDICTS)
        .execute(Tuple.of(subscription, version, requester))
        .map(
            rows -> {
              Map<String, Verdict> out = new HashMap<>();
              for (Row r : rows) {
                out.put(
                    r.getString("cluster"),
                    new Verdict(
                        instant(r, "requested_at"),
                        instant(r, "answered_at"),
                        r.getString("verdict"),
                        r.getValue("findings") instanceof JsonArray a ? a : new JsonArray()));
              }
              return out;
            });
  }

  private static Instant instant(Row row, String column) {
    OffsetDateTime t = row.getOffsetDateTime(column);
    return t == null ? null : t.toInstant();
  }
}
