package io.olmstead.controlplane.webhooks;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code webhooks} table and the delivery log the API shows (the dispatcher's own statements are in Deliveries). */
final class WebhookStore {
  private static final String COLUMNS = "w.name, w.url, w.events, w.team, w.created_by, w.created_at, "
      + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook = w.name AND d.state = 'Pending') AS pending, "
      + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook = w.name AND d.state = 'Delivered') AS delivered, "
      + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook = w.name AND d.state = 'Failed') AS failed, "
      + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook = w.name AND d.state = 'Dropped') AS dropped, "
      + "(SELECT d.last_error FROM webhook_deliveries d WHERE d.webhook = w.name AND d.last_error IS NOT NULL "
      + "ORDER BY d.id DESC LIMIT 1) AS last_error";
  private static final String INSERT = "INSERT INTO webhooks (name, url, events, secret, team, created_by) "
      + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING RETURNING name";
  private static final String ONE = "SELECT " + COLUMNS + " FROM webhooks w WHERE w.name = $1";
  private static final String PAGE = "SELECT " + COLUMNS + " FROM webhooks w WHERE ($1::text IS NULL OR w.name > $1) "
      + "AND ($2::text[] IS NULL OR w.team = ANY($2)) ORDER BY w.name LIMIT $3";
  private static final String DELETE = "DELETE FROM webhooks WHERE name = $1";
  private static final String DELIVERIES = "SELECT id, type, subject, state, attempts, next_attempt_at, last_status, "
      + "last_error, created_at, finished_at FROM webhook_deliveries WHERE webhook = $1 "
      + "AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3";

  /** Inserts; false when the name is taken. */
  Future<Boolean> insert(SqlClient tx, String name, WebhookSpec spec, String team, String createdBy) {
    return tx.preparedQuery(INSERT).execute(Tuple.of(name, spec.url(), spec.events().toArray(new String[0]),
        spec.secret(), team, createdBy)).map(rows -> rows.rowCount() == 1);
  }

  Future<Optional<Row>> find(SqlClient client, String name) {
    return client.preparedQuery(ONE).execute(Tuple.of(name)).map(WebhookStore::first);
  }

  Future<List<JsonObject>> page(SqlClient client, String after, List<String> teams, int limit) {
    String[] teamArray = teams == null ? null : teams.toArray(new String[0]);
    return client.preparedQuery(PAGE).execute(Tuple.of(after, teamArray, limit)).map(rows -> {
      List<JsonObject> out = new ArrayList<>();
      rows.forEach(row -> out.add(toJson(row)));
      return out;
    });
  }

  Future<Void> delete(SqlClient tx, String name) {
    return tx.preparedQuery(DELETE).execute(Tuple.of(name)).mapEmpty();
  }

  Future<List<JsonObject>> deliveries(SqlClient client, String name, Long beforeId, int limit) {
    return client.preparedQuery(DELIVERIES).execute(Tuple.of(name, beforeId, limit)).map(rows -> {
      List<JsonObject> out = new ArrayList<>();
      rows.forEach(row -> out.add(new JsonObject().put("id", row.getLong("id")).put("type", row.getString("type"))
          .put("subject", row.getString("subject")).put("state", row.getString("state"))
          .put("attempts", row.getInteger("attempts"))
          .put("nextAttemptAt", "Pending".equals(row.getString("state"))
              ? row.getOffsetDateTime("next_attempt_at").toString() : null)
          .put("lastStatus", row.getInteger("last_status")).put("lastError", row.getString("last_error"))
          .put("createdAt", row.getOffsetDateTime("created_at").toString())
          .put("finishedAt", row.getOffsetDateTime("finished_at") == null ? null
              : row.getOffsetDateTime("finished_at").toString())));
      return out;
    });
  }

  /** The API's view of a webhook: never the secret. */
  static JsonObject toJson(Row row) {
    return new JsonObject().put("name", row.getString("name")).put("url", row.getString("url"))
        .put("events", new JsonArray(List.of(row.getArrayOfStrings("events")))).put("team", row.getString("team"))
        .put("createdBy", row.getString("created_by"))
        .put("createdAt", row.getOffsetDateTime("created_at").toString())
        .put("deliveries", new JsonObject().put("pending", row.getLong("pending"))
            .put("delivered", row.getLong("delivered")).put("failed", row.getLong("failed"))
            .put("dropped", row.getLong("dropped")).put("lastError", row.getString("last_error")));
  }

  private static Optional<Row> first(RowSet<Row> rows) {
    var it = rows.iterator();
    return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
  }
}
