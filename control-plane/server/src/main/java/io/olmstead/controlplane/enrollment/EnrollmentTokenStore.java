package io.olmstead.controlplane.enrollment;

import io.olmstead.controlplane.auth.Principal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Enrollment tokens in {@code enrollment_tokens}, stored as SHA-256 digests; the agent gateway's
 * enrollment takes their uses.
 */
public final class EnrollmentTokenStore {
  // uses: one row a use in enrollment_token_uses (the agent gateway's TokenUses takes them)
  private static final String COLUMNS =
      "id, labels, cluster_name, max_uses, (SELECT count(*) FROM enrollment_token_uses u "
          + "WHERE u.token_id = enrollment_tokens.id)::int AS uses, expires_at, created_by, created_at, "
          + "revoked_at";
  private static final String INSERT =
      """
      INSERT INTO enrollment_tokens (token_hash, labels, cluster_name, max_uses, expires_at, created_by)
      VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6) RETURNING"""
          + " "
          + COLUMNS;
  // $1: the caller's teams (null: every token); a scoped caller lists only tokens labelled with one
  // of them
  private static final String PAGE =
      "SELECT "
          + COLUMNS
          + " FROM enrollment_tokens"
          + " WHERE ($1::text[] IS NULL OR labels ->> '"
          + Principal.TEAM_LABEL
          + "' = ANY($1))"
          + " AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3)) ORDER BY created_at DESC, id DESC LIMIT $4";
  private static final String FIND = "SELECT " + COLUMNS + " FROM enrollment_tokens WHERE id = $1";
  private static final String REVOKE =
      "UPDATE enrollment_tokens SET revoked_at = now() WHERE id = $1"
          + " AND revoked_at IS NULL RETURNING "
          + COLUMNS;

  /** A stored enrollment token (never its secret). */
  public record EnrollmentToken(
      UUID id,
      JsonObject labels,
      String clusterName,
      int maxUses,
      int uses,
      OffsetDateTime expiresAt,
      String createdBy,
      OffsetDateTime createdAt,
      OffsetDateTime revokedAt) {

    public JsonObject toJson() {
      return new JsonObject()
          .put("id", id.toString())
          .put("labels", labels)
          .put("clusterName", clusterName)
          .put("maxUses", maxUses)
          .put("uses", uses)
          .put("expiresAt", expiresAt.toString())
          .put("createdBy", createdBy)
          .put("createdAt", createdAt.toString())
          .put("revokedAt", revokedAt == null ? null : revokedAt.toString());
    }

    public JsonArray cursorKey() {
      return new JsonArray().add(createdAt.toString()).add(id.toString());
    }

    public String team() {
      return labels.getString(Principal.TEAM_LABEL);
    }
  }

  public Future<EnrollmentToken> insert(
      SqlClient client,
      byte[] hash,
      JsonObject labels,
      String clusterName,
      int maxUses,
      long ttlSeconds,
      String createdBy) {
    return client
        .preparedQuery(INSERT)
        .execute(Tuple.of(hash, labels, clusterName, maxUses, (double) ttlSeconds, createdBy))
        .map(rows -> tokens(rows).get(0));
  }

  /**
   * Tokens after the cursor key {@code (createdAt, id)} labelled with one of {@code teams} (null:
   * every token), newest first, at most {@code limit + 1}.
   */
  public Future<List<EnrollmentToken>> page(
      SqlClient client, String[] teams, Optional<JsonArray> after, int limit) {
    return client
        .preparedQuery(PAGE)
        .execute(
            Tuple.of(
                teams,
                after.map(key -> OffsetDateTime.parse(key.getString(0))).orElse(null),
                after.map(key -> UUID.fromString(key.getString(1))).orElse(null),
                limit + 1))
        .map(EnrollmentTokenStore::tokens);
  }

  public Future<Optional<EnrollmentToken>> find(SqlClient client, UUID id) {
    return client.preparedQuery(FIND).execute(Tuple.of(id)).map(rows -> first(tokens(rows)));
  }

  /** Revokes a live token; empty when there is none with this id or it was already revoked. */
  public Future<Optional<EnrollmentToken>> revoke(SqlClient client, UUID id) {
    return client.preparedQuery(REVOKE).execute(Tuple.of(id)).map(rows -> first(tokens(rows)));
  }

  private static <T> Optional<T> first(List<T> list) {
    return list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
  }

  private static List<EnrollmentToken> tokens(RowSet<Row> rows) {
    List<EnrollmentToken> tokens = new ArrayList<>();
    for (Row row : rows) {
      Object labels = row.getValue("labels");
      tokens.add(
          new EnrollmentToken(
              row.getUUID("id"),
              labels instanceof JsonObject json ? json : new JsonObject(),
              row.getString("cluster_name"),
              row.getInteger("max_uses"),
              row.getInteger("uses"),
              row.getOffsetDateTime("expires_at"),
              row.getString("created_by"),
              row.getOffsetDateTime("created_at"),
              row.getOffsetDateTime("revoked_at")));
    }
    return tokens;
  }
}
