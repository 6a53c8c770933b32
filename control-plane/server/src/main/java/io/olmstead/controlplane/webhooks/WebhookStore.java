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

/**
 * The {@code webhooks} table and the delivery log the API shows (the dispatcher's own statements
 * are in Deliveries).
 */
final class WebhookStore {
  private static final String COLUMNS =
      "w.id, w.name, w.url, w.events, w.team, w.created_by, w.created_at, "
          + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'Pending') AS pending, "
          + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'Delivered') AS delivered, "
          + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'Failed') AS failed, "
          + "(SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'Dropped') AS dropped, "
          + "(SELECT d.last_error FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.last_error IS NOT NULL "
          + "ORDER BY d.id DESC LIMIT 1) AS last_error";
  // names are unique per team, the fleet-wide webhooks (no team) being one more namespace (V36)
  private static final String INSERT =
      "INSERT INTO webhooks (name, url, events, secret, team, created_by) "
          + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ((coalesce(team, '')), name) DO NOTHING RETURNING id";
  private static final String ONE = "SELECT " + COLUMNS + " FROM webhooks w WHERE w.id = $1";
  // every team's webhook of that name: at most one a team, WebhookRefs picks the caller's
  private static final String NAMED = "SELECT " + COLUMNS + " FROM webhooks w WHERE w.name = $1";
  private static final String PAGE =
      "SELECT "
          + COLUMNS
          + " FROM webhooks w "
          + "WHERE ($1::text IS NULL OR (w.name, w.id) > ($1, $2::bigint)) "
          + "AND ($3::text[] IS NULL OR w.team = ANY($3)) ORDER BY w.name, w.id LIMIT $4";
  private static final String DELETE = "DELETE FROM webhooks WHERE id = $1";
  private static final String DELIVERIES =
      "SELECT id, type, subject, state, attempts, next_attempt_at, last_status, "
          + "last_error, created_at, finished_at FROM webhook_deliveries WHERE webhook_id = $1 "
          + "AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3";

  /** Inserts; the new webhook's id, or empty when the team already has a webhook of that name. */
  Future<Optional<Long>> insert(
      SqlClient tx, String name, WebhookSpec spec, String team, String createdBy) {
    return tx.preparedQuery(INSERT)
        .execute(
            Tuple.of(
                name,
                spec.url(),
                spec.events().toArray(new String[0]),
                spec.secret(),
                team,
                createdBy))
        .map(rows -> first(rows).map(row -> row.getLong("id")));
  }

  Future<Optional<Row>> find(SqlClient client, long id) {
    return client.preparedQuery(ONE).execute(Tuple.of(id)).map(WebhookStore::first);
  }

  /** Every webhook of this name, whatever its team. */
  Future<List<WebhookRefs.Found>> named(SqlClient client, String name) {
    return client.preparedQuery(NAMED).execute(Tuple.of(name)).map(WebhookStore::found);
  }

  private static List<WebhookRefs.Found> found(RowSet<Row> rows) {
    List<WebhookRefs.Found> out = new ArrayList<>();
    rows.forEach(row -> out.add(new WebhookRefs.Found(row.getLong("id"), toJson(row))));
    return out;
  }

  /**
   * A page after ({@code afterName}, {@code afterId}), ordered by name then id (the key of the
   * page's cursor).
   */
  Future<List<WebhookRefs.Found>> page(
      SqlClient client, String afterName, Long afterId, String[] teams, int limit) {
    return client
        .preparedQuery(PAGE)
        .execute(Tuple.of(afterName, afterId, teams, limit))
        .map(WebhookStore::found);
  }

  Future<Void> delete(SqlClient tx, long id) {
    return tx.preparedQuery(DELETE).execute(Tuple.of(id)).mapEmpty();
  }

  Future<List<JsonObject>> deliveries(SqlClient client, long webhookId, Long beforeId, int limit) {
    return client
        .preparedQuery(DELIVERIES)
        .execute(Tuple.of(webhookId, beforeId, limit))
        .map(
            rows -> {
              List<JsonObject> out = new ArrayList<>();
              rows.forEach(
                  row ->
                      out.add(
                          new JsonObject()
                              .put("id", row.getLong("id"))
                              .put("type", row.getString("type"))
                              .put("subject", row.getString("subject"))
                              .put("state", row.getString("state"))
                              .put("attempts", row.getInteger("attempts"))
                              .put(
                                  "nextAttemptAt",
                                  "Pending".equals(row.getString("state"))
                                      ? row.getOffsetDateTime("next_attempt_at").toString()
                                      : null)
                              .put("lastStatus", row.getInteger("last_status"))
                              .put("lastError", row.getString("last_error"))
                              .put("createdAt", row.getOffsetDateTime("created_at").toString())
                              .put(
                                  "finishedAt",
                                  row.getOffsetDateTime("finished_at") == null
                                      ? null
                                      : row.getOffsetDateTime("finished_at").toString())));
              return out;
            });
  }

  /** The API's view of a webhook: never the secret. */
  static JsonObject toJson(Row row) {
    return new JsonObject()
        .put("name", row.getString("name"))
        .put("url", row.getString("url"))
        .put("events", new JsonArray(List.of(row.getArrayOfStrings("events"))))
        .put("team", row.getString("team"))
        .put("createdBy", row.getString("created_by"))
        .put("createdAt", row.getOffsetDateTime("created_at").toString())
        .put(
            "deliveries",
            new JsonObject()
                .put("pending", row.getLong("pending"))
                .put("delivered", row.getLong("delivered"))
                .put("failed", row.getLong("failed"))
                .put("dropped", row.getLong("dropped"))
                .put("lastError", row.getString("last_error")));
  }

  private static Optional<Row> first(RowSet<Row> rows) {
    var it = rows.iterator();
    return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
  }
}
