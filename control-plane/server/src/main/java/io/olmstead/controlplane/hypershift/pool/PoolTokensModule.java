package io.olmstead.controlplane.hypershift.pool;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /pool-tokens}: an admin of no team lists, creates (secret shown once, stored as SHA-256;
 * one live token per name) and revokes the tokens hosted agent pool replicas connect with; also
 * binds the pool's WebSocket operation to its handler.
 */
public final class PoolTokensModule implements ApiModule {
  public static final String TOKEN_PREFIX = "olm_pool_";
  private static final String INSERT =
      "INSERT INTO pool_tokens (name, token_hash, created_by) VALUES ($1, $2, $3)"
          + " RETURNING id, name, created_by, created_at";
  // one live token per name, so a revocation by name in a runbook cannot hit the wrong one
  private static final String LOCK_NAME =
      "SELECT pg_advisory_xact_lock(hashtext('pool-token:' || $1))";
  private static final String LIVE_NAMED =
      "SELECT 1 FROM pool_tokens WHERE name = $1 AND revoked_at IS NULL";
  private static final String PAGE =
      "SELECT t.id, t.name, t.created_by, t.created_at, t.revoked_at,"
          + " coalesce((SELECT array_agg(m.member ORDER BY m.member) FROM (SELECT member FROM pool_members"
          + " WHERE token_id = t.id ORDER BY member LIMIT 500) m), '{}') AS members FROM pool_tokens t"
          + " WHERE ($1::timestamptz IS NULL OR (t.created_at, t.id) < ($1, $2)) ORDER BY t.created_at DESC, t.id DESC"
          + " LIMIT $3";
  private static final String REVOKE =
      "UPDATE pool_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL";

  private final HostedAgentPool pool;
  private ApiContext context;

  public PoolTokensModule(HostedAgentPool pool) {
    this.pool = pool;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "listPoolTokens", this::list);
    ApiModule.bind(builder, "createPoolToken", this::create);
    ApiModule.bind(builder, "revokePoolToken", this::revoke);
    ApiModule.route(builder, "connectPool").addHandler(pool.connectHandler());
  }

  private Future<Reply> create(ApiRequest request) {
    String name = request.body().getString("name");
    String secret = Tokens.generate(TOKEN_PREFIX);
    return context
        .tx()
        .audited(
            request.audit("pool-token.create", "pool-tokens"),
            conn ->
                conn.preparedQuery(LOCK_NAME)
                    .execute(Tuple.of(name))
                    .compose(locked -> conn.preparedQuery(LIVE_NAMED).execute(Tuple.of(name)))
                    .compose(
                        live -> {
                          if (live.rowCount() > 0) {
                            throw ApiException.conflict(
                                "a live pool token is already named "
                                    + name
                                    + ": revoke it first or choose another name");
                          }
                          return conn.preparedQuery(INSERT)
                              .execute(
                                  Tuple.of(
                                      name,
                                      Buffer.buffer(Tokens.hash(secret)),
                                      request.principal().actor()));
                        })
                    .map(rows -> toJson(rows.iterator().next())),
            token -> new JsonObject().put("created", token.getString("id")).put("name", name))
        .map(token -> Reply.created(token.put("token", secret)));
  }

  private Future<Reply> list(ApiRequest request) {
    Optional<JsonArray> after = request.cursor().map(c -> Cursors.decode(c, 2));
    int limit = request.limit();
    Tuple args;
    try {
      args =
          Tuple.of(
              after.map(a -> OffsetDateTime.parse(a.getString(0))).orElse(null),
              after.map(a -> UUID.fromString(a.getString(1))).orElse(null),
              limit + 1);
    } catch (RuntimeException e) {
      throw ApiException.badRequest("cursor is not one this server issued");
    }
    return context
        .tx()
        .read(
            conn ->
                conn.preparedQuery(PAGE)
                    .execute(args)
                    .map(
                        rows -> {
                          List<Row> list = new ArrayList<>();
                          rows.forEach(list::add);
                          return list;
                        }))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        row -> {
                          JsonObject json = toJson(row);
                          OffsetDateTime revoked = row.getOffsetDateTime("revoked_at");
                          return json.put("revokedAt", revoked == null ? null : revoked.toString())
                              .put(
                                  "members",
                                  new JsonArray(List.of(row.getArrayOfStrings("members"))));
                        },
                        row ->
                            new JsonArray()
                                .add(row.getOffsetDateTime("created_at").toString())
                                .add(row.getUUID("id").toString()))));
  }

  private Future<Reply> revoke(ApiRequest request) {
    UUID id = UUID.fromString(request.path("id"));
    return context
        .tx()
        .audited(
            request.audit("pool-token.revoke", "pool-tokens/" + id),
            conn ->
                conn.preparedQuery(REVOKE)
                    .execute(Tuple.of(id))
                    .map(
                        rows -> {
                          if (rows.rowCount() == 0) {
                            throw ApiException.notFound("no live pool token " + id);
                          }
                          return id;
                        }),
            null)
        .map(v -> Reply.noContent());
  }

  private static JsonObject toJson(Row row) {
    return new JsonObject()
        .put("id", row.getUUID("id").toString())
        .put("name", row.getString("name"))
        .put("createdBy", row.getString("created_by"))
        .put("createdAt", row.getOffsetDateTime("created_at").toString());
  }
}
