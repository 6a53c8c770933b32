package io.olmstead.controlplane.signals;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code io.olmstead.cluster.disconnected} once per disconnection longer than the threshold, and
 * {@code io.olmstead.cluster.reconnected} when such a cluster's agent is back: {@code
 * cluster_disconnections} remembers what was announced, and each event is queued for the webhooks
 * of the cluster's team (label {@code olmstead.io/team}) or of no team in the transaction that
 * records it. At most {@link #PER_PASS} clusters of each kind per pass.
 */
final class Disconnections {
  static final int PER_PASS = 500;
  static final String DISCONNECTED = "io.olmstead.cluster.disconnected";
  static final String RECONNECTED = "io.olmstead.cluster.reconnected";
  private static final String DUE =
      "SELECT c.name, c.labels ->> 'olmstead.io/team', coalesce(c.last_seen, c.updated_at) "
          + "FROM clusters c WHERE c.status = 'disconnected' "
          + "AND coalesce(c.last_seen, c.updated_at) < now() - make_interval(secs => $1) "
          + "AND NOT EXISTS (SELECT 1 FROM cluster_disconnections d WHERE d.cluster = c.name) "
          + "ORDER BY 3 LIMIT $2";
  private static final String ANNOUNCE =
      "INSERT INTO cluster_disconnections (cluster, since) VALUES ($1, $2) "
          + "ON CONFLICT (cluster) DO NOTHING";
  // back (connected), or retired: the first is announced, the second only forgotten
  private static final String BACK =
      "DELETE FROM cluster_disconnections d USING clusters c WHERE c.name = d.cluster "
          + "AND d.cluster IN (SELECT x.cluster FROM cluster_disconnections x JOIN clusters y ON y.name = x.cluster "
          + "WHERE y.status IN ('connected', 'retired') LIMIT $1) "
          + "RETURNING d.cluster, c.labels ->> 'olmstead.io/team', d.since, c.status";

  private final Pool pool;
  private final Duration after;
  private final Function<SqlConnection, Future<Void>> fence;

  /**
   * {@code fence}: the first statement of each transaction (the leader's, see {@code
   * LeaderLock#fence}).
   */
  Disconnections(Pool pool, Duration after, Function<SqlConnection, Future<Void>> fence) {
    this.pool = pool;
    this.after = after;
    this.fence = fence;
  }

  /**
   * One bounded pass: announces the due disconnections and the reconnections; answers how many
   * events it queued.
   */
  Future<Integer> pass() {
    return pool.withTransaction(tx -> fence.apply(tx).compose(f -> announce(tx)))
        .compose(
            a ->
                pool.withTransaction(tx -> fence.apply(tx).compose(f -> back(tx))).map(b -> a + b));
  }

  private Future<Integer> announce(SqlConnection tx) {
    return tx.preparedQuery(DUE)
        .execute(Tuple.of(after.toMillis() / 1000.0, PER_PASS))
        .compose(
            rows -> {
              List<Row> due = new ArrayList<>();
              rows.forEach(due::add);
              Future<Void> chain = Future.succeededFuture();
              for (Row row : due) {
                String cluster = row.getString(0);
                String team = row.getString(1);
                var since = row.getOffsetDateTime(2);
                JsonObject data =
                    new JsonObject()
                        .put("cluster", cluster)
                        .put("team", team)
                        .put("disconnectedSince", since.toString())
                        .put("after", after.toString());
                chain =
                    chain
                        .compose(v -> tx.preparedQuery(ANNOUNCE).execute(Tuple.of(cluster, since)))
                        .compose(
                            v ->
                                SignalStore.enqueue(
                                    tx,
                                    DISCONNECTED,
                                    team,
                                    cluster,
                                    CloudEvents.event(
                                        DISCONNECTED,
                                        "/api/v1/clusters/" + cluster,
                                        cluster,
                                        data)));
              }
              return chain.map(due.size());
            });
  }

  private Future<Integer> back(SqlConnection tx) {
    return tx.preparedQuery(BACK)
        .execute(Tuple.of(PER_PASS))
        .compose(
            rows -> {
              Future<Void> chain = Future.succeededFuture();
              int count = 0;
              for (Row row : rows) {
                if (!"connected".equals(row.getString(3))) {
                  continue;
                }
                count++;
                String cluster = row.getString(0);
                String team = row.getString(1);
                var since = row.getOffsetDateTime(2);
                JsonObject data =
                    new JsonObject()
                        .put("cluster", cluster)
                        .put("team", team)
                        .put("disconnectedSince", since == null ? null : since.toString());
                chain =
                    chain.compose(
                        v ->
                            SignalStore.enqueue(
                                tx,
                                RECONNECTED,
                                team,
                                cluster,
                                CloudEvents.event(
                                    RECONNECTED, "/api/v1/clusters/" + cluster, cluster, data)));
              }
              return chain.map(count);
            });
  }
}
