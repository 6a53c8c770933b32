package io.olmstead.controlplane.agentgateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.controlplane.db.DbTime;
import io.olmstead.controlplane.edgerisk.ReportedEdge;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes a batch of status reports and acks in one transaction with a constant number of statements
 * (arrays through {@code unnest}). Idempotent by seq: a row changes only for a higher seq, a {@code
 * full} report marks the cluster's rows with a lower seq gone, and the cluster's last applied seq
 * only grows. The optional CSV details are stored as sent (jsonb); a report without them clears
 * them.
 */
final class StatusBatchWriter {
  // The stored state before the upsert (every CTE sees the statement's snapshot) comes back with
  // the rows changed that
  // may tell of an upgrade edge: a Failed report moving somewhere, a Succeeded one at another
  // version than before.
  private static final String UPSERT =
      "WITH u AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], "
          + "$7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::text[]) "
          + "AS u(subscription, cluster, ib, iv, tv, phase, reason, message, conditions, og, seq, csv)), "
          + "old AS (SELECT o.subscription, o.cluster, o.installed_version, o.target_version, o.phase "
          + "FROM subscription_status o JOIN u ON o.subscription = u.subscription AND o.cluster = u.cluster "
          + "WHERE NOT o.gone), "
          + "up AS (INSERT INTO subscription_status AS s (subscription, cluster, installed_bundle, installed_version, "
          + "target_version, phase, reason, message, conditions, observed_generation, seq, updated_at, gone, csv) "
          + "SELECT u.subscription, u.cluster, u.ib, u.iv, u.tv, u.phase, u.reason, u.message, u.conditions::jsonb, "
          + "u.og, u.seq, now(), false, u.csv::jsonb FROM u "
          + "ON CONFLICT (subscription, cluster) DO UPDATE SET installed_bundle = EXCLUDED.installed_bundle, "
          + "installed_version = EXCLUDED.installed_version, target_version = EXCLUDED.target_version, "
          + "phase = EXCLUDED.phase, reason = EXCLUDED.reason, message = EXCLUDED.message, "
          + "conditions = EXCLUDED.conditions, observed_generation = EXCLUDED.observed_generation, "
          + "seq = EXCLUDED.seq, updated_at = now(), gone = false, csv = EXCLUDED.csv WHERE s.seq < EXCLUDED.seq "
          + "RETURNING s.subscription, s.cluster, s.installed_version, s.target_version, s.phase, s.reason, s.message) "
          + "SELECT up.*, old.installed_version AS old_installed, old.target_version AS old_target, "
          + "old.phase AS old_phase FROM up LEFT JOIN old ON old.subscription = up.subscription "
          + "AND old.cluster = up.cluster WHERE (up.phase = 'Failed' AND up.installed_version IS DISTINCT FROM "
          + "up.target_version) OR (up.phase = 'Succeeded' AND old.installed_version IS NOT NULL "
          + "AND old.installed_version IS DISTINCT FROM up.installed_version)";
  private static final String MARK_GONE =
      "UPDATE subscription_status s SET gone = true, seq = f.seq, updated_at = now() "
          + "FROM unnest($1::text[], $2::bigint[]) AS f(cluster, seq) "
          + "WHERE s.cluster = f.cluster AND s.seq < f.seq AND NOT s.gone";
  // One write per cluster row a batch: its last applied seq and its acked generation together (a
  // null leaves that column as it is; GREATEST ignores nulls), acked_at moved only by an ack, to
  // the control plane's clock's time ($4), the one approvals (rollout_clusters.approved_at) are on.
  private static final String CHANNEL_ROWS =
      "UPDATE agent_channel_state s SET last_status_seq = GREATEST(s.last_status_seq, u.seq), "
          + "acked_generation = GREATEST(s.acked_generation, u.generation), "
          + "acked_at = CASE WHEN u.generation IS NULL THEN s.acked_at ELSE $4::timestamptz END "
          + "FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS u(cluster, seq, generation) "
          + "WHERE s.cluster = u.cluster";

  private final Pool pool;
  private final Clock clock;

  /** {@code clock}: when an ack arrived ({@code acked_at}). */
  StatusBatchWriter(Pool pool, Clock clock) {
    this.pool = pool;
    this.clock = clock;
  }

  /** One report as received from a cluster's session. */
  record Report(String cluster, Status status) {}

  /** One desired-state ack. */
  record AckRow(String cluster, long generation) {}

  /**
   * Writes the batch; answers the upgrade-edge attempts its reports tell of ({@link ReportedEdge}),
   * of the rows it changed (a replay changes none).
   */
  Future<List<PendingAttempts.Pending>> write(List<Report> reports, List<AckRow> acks) {
    // Newest report per (cluster, subscription) and per cluster; sorted so concurrent batches lock
    // in one order.
    Map<String, Latest> latest = new TreeMap<>();
    Map<String, Long> lastSeq = new TreeMap<>();
    Map<String, Long> fullSeq = new TreeMap<>();
    for (Report report : reports) {
      long seq = report.status().seq();
      lastSeq.merge(report.cluster(), seq, Math::max);
      if (report.status().full()) {
        fullSeq.merge(report.cluster(), seq, Math::max);
      }
      for (SubscriptionStatus s : report.status().subscriptions()) {
        latest.merge(
            report.cluster() + '\u0000' + s.name(),
            new Latest(report.cluster(), seq, s),
            (a, b) -> a.seq >= b.seq ? a : b);
      }
    }
    Map<String, Long> ackGen = new TreeMap<>();
    acks.forEach(a -> ackGen.merge(a.cluster(), a.generation(), Math::max));
    Set<String> channelRows = new TreeSet<>(lastSeq.keySet());
    channelRows.addAll(ackGen.keySet());
    return pool.withTransaction(
        tx -> {
          Future<List<PendingAttempts.Pending>> attempts = upsert(tx, latest.values());
          return attempts
              .compose(v -> pairs(tx, MARK_GONE, fullSeq))
              .compose(v -> ChannelStateStore.lockInOrder(tx, channelRows))
              .compose(v -> channelRows(tx, channelRows, lastSeq, ackGen, DbTime.now(clock)))
              .map(v -> attempts.result());
        });
  }

  private static Future<List<PendingAttempts.Pending>> upsert(
      SqlConnection tx, Collection<Latest> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    int n = rows.size();
    String[] sub = new String[n];
    String[] cluster = new String[n];
    String[] ib = new String[n];
    String[] iv = new String[n];
    String[] tv = new String[n];
    String[] phase = new String[n];
    String[] reason = new String[n];
    String[] message = new String[n];
    String[] conditions = new String[n];
    Long[] og = new Long[n];
    Long[] seq = new Long[n];
    String[] csv = new String[n];
    int i = 0;
    for (Latest r : rows) {
      SubscriptionStatus s = r.status;
      sub[i] = s.name();
      cluster[i] = r.cluster;
      ib[i] = s.installedBundle();
      iv[i] = s.installedVersion();
      tv[i] = s.targetVersion();
      phase[i] = s.phase();
      reason[i] = s.reason();
      message[i] = s.message();
      conditions[i] = conditionsJson(s);
      og[i] = s.observedGeneration();
      seq[i] = r.seq;
      csv[i] = s.csv() == null ? null : json(s.csv(), null);
      i++;
    }
    return tx.preparedQuery(UPSERT)
        .execute(
            Tuple.wrap(
                new ArrayList<>(
                    List.of(
                        sub,
                        cluster,
                        ib,
                        iv,
                        tv,
                        phase,
                        reason,
                        message,
                        conditions,
                        og,
                        seq,
                        csv))))
        .map(StatusBatchWriter::attempts);
  }

  private static List<PendingAttempts.Pending> attempts(RowSet<Row> changed) {
    List<PendingAttempts.Pending> out = new ArrayList<>();
    for (Row r : changed) {
      ReportedEdge.State before =
          r.getString("old_phase") == null && r.getString("old_installed") == null
              ? null
              : new ReportedEdge.State(
                  r.getString("old_installed"),
                  r.getString("old_target"),
                  r.getString("old_phase"),
                  null,
                  null);
      ReportedEdge.State now =
          new ReportedEdge.State(
              r.getString("installed_version"),
              r.getString("target_version"),
              r.getString("phase"),
              r.getString("reason"),
              r.getString("message"));
      ReportedEdge.of(before, now)
          .ifPresent(
              a ->
                  out.add(
                      new PendingAttempts.Pending(
                          r.getString("cluster"), r.getString("subscription"), a)));
    }
    return out;
  }

  private static Future<Void> channelRows(
      SqlConnection tx,
      Set<String> clusters,
      Map<String, Long> seq,
      Map<String, Long> generation,
      OffsetDateTime ackedAt) {
    if (clusters.isEmpty()) {
      return Future.succeededFuture();
    }
    return tx.preparedQuery(CHANNEL_ROWS)
        .execute(
            Tuple.tuple()
                .addArrayOfString(clusters.toArray(String[]::new))
                .addArrayOfLong(clusters.stream().map(seq::get).toArray(Long[]::new))
                .addArrayOfLong(clusters.stream().map(generation::get).toArray(Long[]::new))
                .addOffsetDateTime(ackedAt))
        .mapEmpty();
  }

  private static Future<Void> pairs(SqlConnection tx, String sql, Map<String, Long> values) {
    if (values.isEmpty()) {
      return Future.succeededFuture();
    }
    return tx.preparedQuery(sql)
        .execute(
            Tuple.tuple()
                .addArrayOfString(values.keySet().toArray(String[]::new))
                .addArrayOfLong(values.values().toArray(Long[]::new)))
        .mapEmpty();
  }

  private static String conditionsJson(SubscriptionStatus s) {
    return s.conditions() == null ? "[]" : json(s.conditions(), "[]");
  }

  private static String json(Object value, String otherwise) {
    try {
      return ProtocolCodec.mapper().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return otherwise;
    }
  }

  private record Latest(String cluster, long seq, SubscriptionStatus status) {}
}
