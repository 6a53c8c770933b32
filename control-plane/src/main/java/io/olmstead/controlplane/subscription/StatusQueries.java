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
 * Read side of {@code subscription_status} (written by the agent gateway): totals by installed version and phase,
 * and per-cluster rows in cluster order. Rows marked {@code gone} (the cluster no longer runs the subscription) are
 * left out.
 */
public final class StatusQueries {
  private static final String BY_VERSION = "SELECT installed_version, count(*) FROM subscription_status "
      + "WHERE subscription = $1 AND NOT gone GROUP BY installed_version";
  private static final String BY_PHASE = "SELECT phase, count(*) FROM subscription_status "
      + "WHERE subscription = $1 AND NOT gone GROUP BY phase";
  private static final String ITEMS = "SELECT cluster, installed_version, target_version, phase, reason, message, "
      + "updated_at FROM subscription_status WHERE subscription = $1 AND NOT gone "
      + "AND ($2::text IS NULL OR cluster > $2) ORDER BY cluster LIMIT $3";

  /** A key for rows without an installed version or phase in the totals. */
  public static final String NONE = "none";

  /** One cluster's status row as the API shows it. */
  public record Item(String cluster, String installedVersion, String targetVersion, String phase, String reason,
      String message, OffsetDateTime updatedAt) {
    public JsonObject toJson() {
      return new JsonObject().put("cluster", cluster).put("installedVersion", installedVersion)
          .put("targetVersion", targetVersion).put("phase", phase == null ? "Unknown" : phase).put("reason", reason)
          .put("message", message).put("updatedAt", updatedAt == null ? null : updatedAt.toString());
    }
  }

  public Future<JsonObject> byVersion(SqlClient client, String subscription) {
    return counts(client, BY_VERSION, subscription);
  }

  public Future<JsonObject> byPhase(SqlClient client, String subscription) {
    return counts(client, BY_PHASE, subscription);
  }

  /** Rows after cluster {@code afterCluster}, at most {@code limit}. */
  public Future<List<Item>> items(SqlClient client, String subscription, String afterCluster, int limit) {
    return client.preparedQuery(ITEMS).execute(Tuple.of(subscription, afterCluster, limit)).map(rows -> {
      List<Item> out = new ArrayList<>(rows.size());
      for (Row row : rows) {
        out.add(new Item(row.getString(0), row.getString(1), row.getString(2), row.getString(3), row.getString(4),
            row.getString(5), row.getOffsetDateTime(6)));
      }
      return out;
    });
  }

  private static Future<JsonObject> counts(SqlClient client, String sql, String subscription) {
    return client.preparedQuery(sql).execute(Tuple.of(subscription)).map(rows -> {
      JsonObject out = new JsonObject();
      for (Row row : rows) {
        String key = row.getString(0) == null ? NONE : row.getString(0);
        out.put(key, out.getLong(key, 0L) + row.getLong(1));
      }
      return out;
    });
  }
}
