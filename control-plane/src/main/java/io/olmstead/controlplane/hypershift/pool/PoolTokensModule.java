package io.olmstead.controlplane.hypershift.pool;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiException;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.UUID;

/**
 * {@code /pool-tokens}: an admin of no team creates (secret shown once, stored as SHA-256) and revokes the tokens
 * hosted agent pool replicas connect with; also binds the pool's WebSocket operation to its handler.
 */
public final class PoolTokensModule implements ApiModule {
  public static final String TOKEN_PREFIX = "olm_pool_";
  private static final String INSERT = "INSERT INTO pool_tokens (name, token_hash, created_by) VALUES ($1, $2, $3)"
      + " RETURNING id, name, created_by, created_at";
  private static final String REVOKE = "UPDATE pool_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL";

  private final HostedAgentPool pool;
  private ApiContext context;

  public PoolTokensModule(HostedAgentPool pool) {
    this.pool = pool;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "createPoolToken", this::create);
    ApiModule.bind(builder, "revokePoolToken", this::revoke);
    ApiModule.route(builder, "connectPool").addHandler(pool.connectHandler());
  }

  private Future<Reply> create(ApiRequest request) {
    String name = request.body().getString("name");
    String secret = Tokens.generate(TOKEN_PREFIX);
    return context.tx().audited(request.audit("pool-token.create", "pool-tokens"),
        conn -> conn.preparedQuery(INSERT).execute(Tuple.of(name, Buffer.buffer(Tokens.hash(secret)),
            request.principal().actor())).map(rows -> toJson(rows.iterator().next())),
        token -> new JsonObject().put("created", token.getString("id")).put("name", name))
        .map(token -> Reply.created(token.put("token", secret)));
  }

  private Future<Reply> revoke(ApiRequest request) {
    UUID id = UUID.fromString(request.path("id"));
    return context.tx().audited(request.audit("pool-token.revoke", "pool-tokens/" + id),
        conn -> conn.preparedQuery(REVOKE).execute(Tuple.of(id)).map(rows -> {
          if (rows.rowCount() == 0) {
            throw ApiException.notFound("no live pool token " + id);
          }
          return id;
        }), null).map(v -> Reply.noContent());
  }

  private static JsonObject toJson(Row row) {
    return new JsonObject().put("id", row.getUUID("id").toString()).put("name", row.getString("name"))
        .put("createdBy", row.getString("created_by")).put("createdAt", row.getOffsetDateTime("created_at").toString());
  }
}
