package io.olmstead.controlplane.rollout;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL for one calendar table ({@code maintenance_windows} or {@code freezes}): name, validated
 * spec, version.
 */
final class CalendarStore {
  private final String get;
  private final String list;
  private final String lock;
  private final String insert;
  private final String update;
  private final String delete;

  /** A stored entry; {@code spec} is what the client sent, after validation. */
  record Entry(
      String name,
      JsonObject spec,
      long resourceVersion,
      OffsetDateTime createdAt,
      OffsetDateTime updatedAt) {
    JsonObject toJson() {
      return spec.copy()
          .put("name", name)
          .put("resourceVersion", resourceVersion)
          .put("createdAt", createdAt.toString())
          .put("updatedAt", updatedAt.toString());
    }
  }

  /** {@code table} is one of the two constants of {@link CalendarKind}, never client input. */
  CalendarStore(String table) {
    String columns = "SELECT name, spec, resource_version, created_at, updated_at FROM " + table;
    this.get = columns + " WHERE name = $1";
    this.list = columns + " WHERE ($1::text IS NULL OR name > $1) ORDER BY name LIMIT $2";
    this.lock = "SELECT resource_version FROM " + table + " WHERE name = $1 FOR UPDATE";
    this.insert = "INSERT INTO " + table + " (name, spec) VALUES ($1, $2)";
    this.update =
        "UPDATE "
            + table
            + " SET spec = $2, resource_version = resource_version + 1, updated_at = now() "
            + "WHERE name = $1";
    this.delete = "DELETE FROM " + table + " WHERE name = $1";
  }

  Future<Optional<Entry>> get(SqlClient client, String name) {
    return client
        .preparedQuery(get)
        .execute(Tuple.of(name))
        .map(
            rows -> {
              var it = rows.iterator();
              return it.hasNext() ? Optional.of(entry(it.next())) : Optional.empty();
            });
  }

  /** Entries ordered by name after {@code afterName} (null: from the start). */
  Future<List<Entry>> list(SqlClient client, String afterName, int limit) {
    return client
        .preparedQuery(list)
        .execute(Tuple.of(afterName, limit))
        .map(
            rows -> {
              List<Entry> out = new ArrayList<>();
              rows.forEach(row -> out.add(entry(row)));
              return out;
            });
  }

  /** Locks the row for the rest of the transaction; its version, or empty when there is none. */
  Future<Optional<Long>> lock(SqlClient tx, String name) {
    return tx.preparedQuery(lock)
        .execute(Tuple.of(name))
        .map(
            rows -> {
              var it = rows.iterator();
              return it.hasNext() ? Optional.of(it.next().getLong(0)) : Optional.empty();
            });
  }

  Future<Void> insert(SqlClient tx, String name, JsonObject spec) {
    return tx.preparedQuery(insert).execute(Tuple.of(name, spec)).mapEmpty();
  }

  Future<Void> update(SqlClient tx, String name, JsonObject spec) {
    return tx.preparedQuery(update).execute(Tuple.of(name, spec)).mapEmpty();
  }

  Future<Void> delete(SqlClient tx, String name) {
    return tx.preparedQuery(delete).execute(Tuple.of(name)).mapEmpty();
  }

  private static Entry entry(Row row) {
    Object spec = row.getValue(1);
    return new Entry(
        row.getString(0),
        spec instanceof JsonObject o ? o : new JsonObject(String.valueOf(spec)),
        row.getLong(2),
        row.getOffsetDateTime(3),
        row.getOffsetDateTime(4));
  }
}
