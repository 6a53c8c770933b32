package io.olmstead.controlplane.tokens;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * API tokens in {@code api_tokens}: only SHA-256 digests are stored; listings never carry a secret.
 */
public final class ApiTokenStore {
  private static final String COLUMNS = "id, name, role, teams, created_by, created_at";
  private static final String INSERT =
      "INSERT INTO api_tokens (name, role, teams, token_hash, created_by)"
          + " VALUES ($1, $2, $3, $4, $5) RETURNING "
          + COLUMNS;
  // $1: the caller's teams (null: every token); a scoped caller lists only tokens whose teams are
  // all its own
  private static final String PAGE =
      "SELECT "
          + COLUMNS
          + " FROM api_tokens WHERE revoked_at IS NULL"
          + " AND ($1::text[] IS NULL OR (cardinality(teams) > 0 AND teams <@ $1))"
          + " AND ($2::text IS NULL OR (name, id) > ($2, $3)) ORDER BY name, id LIMIT $4";
  private static final String FIND_LIVE =
      "SELECT " + COLUMNS + " FROM api_tokens WHERE id = $1" + " AND revoked_at IS NULL FOR UPDATE";
  private static final String NOTIFY_REVOKED = "SELECT pg_notify($1, $2)";
  private static final String REVOKE =
      "UPDATE api_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL";

  /** A stored token, never with its secret. */
  public record StoredToken(
      UUID id,
      String name,
      Role role,
      List<String> teams,
      String createdBy,
      OffsetDateTime createdAt) {

    public JsonObject toJson() {
      return new JsonObject()
          .put("id", id.toString())
          .put("name", name)
          .put("role", role.wireName())
          .put("teams", new JsonArray(teams))
          .put("createdBy", createdBy)
          .put("createdAt", createdAt.toString());
    }

    public JsonArray cursorKey() {
      return new JsonArray().add(name).add(id.toString());
    }
  }

  public Future<StoredToken> insert(
      SqlClient client, String name, Role role, List<String> teams, byte[] hash, String createdBy) {
    return client
        .preparedQuery(INSERT)
        .execute(Tuple.of(name, role.wireName(), teams.toArray(new String[0]), hash, createdBy))
        .map(rows -> token(rows.iterator().next()));
  }

  /**
   * Live tokens after the cursor key {@code (name, id)} whose teams are all within {@code teams}
   * (null: every token), at most {@code limit + 1} to tell whether more follow.
   */
  public Future<List<StoredToken>> page(
      SqlClient client, String[] teams, Optional<JsonArray> after, int limit) {
    return client
        .preparedQuery(PAGE)
        .execute(
            Tuple.of(
                teams,
                after.map(key -> key.getString(0)).orElse(null),
                after.map(key -> UUID.fromString(key.getString(1))).orElse(null),
                limit + 1))
        .map(
            set -> {
              List<StoredToken> tokens = new ArrayList<>();
              set.forEach(row -> tokens.add(token(row)));
              return tokens;
            });
  }

  /** The live token, locked for the rest of the transaction. */
  public Future<Optional<StoredToken>> findLiveForUpdate(SqlClient client, UUID id) {
    return client
        .preparedQuery(FIND_LIVE)
        .execute(Tuple.of(id))
        .map(
            rows ->
                rows.size() == 0 ? Optional.empty() : Optional.of(token(rows.iterator().next())));
  }

  /**
   * Revokes the token; the notification on {@link Tokens#REVOKED_CHANNEL} goes out when the
   * transaction commits.
   */
  public Future<Boolean> revoke(SqlClient client, UUID id) {
    return client
        .preparedQuery(REVOKE)
        .execute(Tuple.of(id))
        .compose(
            rows ->
                client
                    .preparedQuery(NOTIFY_REVOKED)
                    .execute(Tuple.of(Tokens.REVOKED_CHANNEL, id.toString()))
                    .map(rows.rowCount() == 1));
  }

  private static StoredToken token(Row row) {
    String[] teams = row.getArrayOfStrings("teams");
    return new StoredToken(
        row.getUUID("id"),
        row.getString("name"),
        Role.fromWire(row.getString("role")).orElseThrow(),
        teams == null ? List.of() : List.of(teams),
        row.getString("created_by"),
        row.getOffsetDateTime("created_at"));
  }
}
