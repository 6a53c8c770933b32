package io.olmstead.controlplane.subscription;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Read side of {@code subscription_status} (written by the agent gateway): totals by installed
 * version and phase, and per-cluster rows in cluster order. Rows marked {@code gone} (the cluster
 * no longer runs the subscription) are left out, and so, for a team's subscription, are rows of
 * clusters outside that team.
 */
public final class StatusQueries {
  // $2: the subscription's team; a team's subscription shows only reports of clusters of that team,
  // whatever an
  // agent of another team may have sent about it
  private static final String OWNED =
      " AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM clusters c "
          + "WHERE c.name = subscription_status.cluster AND c.labels ->> '"
          + SubscriptionSpec.TEAM_LABEL
          + "' = $2))";
  private static final String BY_VERSION =
      "SELECT installed_version, count(*) FROM subscription_status "
          + "WHERE subscription = $1 AND NOT gone"
          + OWNED
          + " GROUP BY installed_version";
  private static final String BY_PHASE =
      "SELECT phase, count(*) FROM subscription_status "
          + "WHERE subscription = $1 AND NOT gone"
          + OWNED
          + " GROUP BY phase";
  private static final String ITEMS =
      "SELECT cluster, installed_version, target_version, phase, reason, message, "
          + "updated_at, csv FROM subscription_status WHERE subscription = $1 AND NOT gone"
          + OWNED
          + " AND ($3::text IS NULL OR cluster > $3) ORDER BY cluster LIMIT $4";

  /** A key for rows without an installed version or phase in the totals. */
  public static final String NONE = "none";

  /**
   * One cluster's status row as the API shows it; {@code csv} the stored CSV details (jsonb, or
   * null).
   */
  public record Item(
      String cluster,
      String installedVersion,
      String targetVersion,
      String phase,
      String reason,
      String message,
      OffsetDateTime updatedAt,
      Object csv) {
    public JsonObject toJson() {
      return CsvDetailsView.addTo(
          new JsonObject()
              .put("cluster", cluster)
              .put("installedVersion", installedVersion)
              .put("targetVersion", targetVersion)
              .put("phase", phase == null ? "Unknown" : phase)
              .put("reason", reason)
              .put("message", message)
              .put("updatedAt", updatedAt == null ? null : updatedAt.toString()),
          csv);
    }
  }

  public Future<JsonObject> byVersion(SqlClient client, SubscriptionSpec subscription) {
    return counts(client, BY_VERSION, subscription);
  }

  public Future<JsonObject> byPhase(SqlClient client, SubscriptionSpec subscription) {
    return counts(client, BY_PHASE, subscription);
  }

  /** Rows after cluster {@code afterCluster}, at most {@code limit}. */
  public Future<List<Item>> items(
      SqlClient client, SubscriptionSpec subscription, String afterCluster, int limit) {
    return client
        .preparedQuery(ITEMS)
        .execute(Tuple.of(subscription.name(), subscription.team(), afterCluster, limit))
        .map(
            rows -> {
              List<Item> out = new ArrayList<>(rows.size());
              for (Row row : rows) {
                out.add(
                    new Item(
                        row.getString(0),
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        row.getString(4),
                        row.getString(5),
                        row.getOffsetDateTime(6),
                        row.getValue(7)));
              }
              return out;
            });
  }

  private static Future<JsonObject> counts(
      SqlClient client, String sql, SubscriptionSpec subscription) {
    return client
        .preparedQuery(sql)
        .execute(Tuple.of(subscription.name(), subscription.team()))
        .map(
            rows -> {
              JsonObject out = new JsonObject();
              for (Row row : rows) {
                String key = row.getString(0) == null ? NONE : row.getString(0);
                out.put(key, out.getLong(key, 0L) + row.getLong(1));
              }
              return out;
            });
  }
}
