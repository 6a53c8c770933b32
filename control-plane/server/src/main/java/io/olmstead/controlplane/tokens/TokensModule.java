package io.olmstead.controlplane.tokens;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.auth.BootstrapAdmin;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /tokens}: create (secret shown once), list, revoke; {@code /whoami}: the caller's name,
 * role and teams. A team-scoped admin manages only tokens whose teams are all its own, and cannot
 * mint unscoped ones.
 */
public final class TokensModule implements ApiModule {
  public static final String TOKEN_PREFIX = "olm_";

  private final ApiTokenStore store = new ApiTokenStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "createToken", this::create);
    ApiModule.bind(builder, "listTokens", this::list);
    ApiModule.bind(builder, "revokeToken", this::revoke);
    ApiModule.bind(
        builder,
        "whoAmI",
        r ->
            Future.succeededFuture(
                Reply.ok(
                    new JsonObject()
                        .put("name", r.principal().name())
                        .put("actor", r.principal().actor())
                        .put("role", r.principal().role().wireName())
                        .put("teams", new JsonArray(r.principal().teams())))));
  }

  private Future<Reply> create(ApiRequest request) {
    JsonObject body = request.body();
    String name = body.getString("name");
    Role role = Role.fromWire(body.getString("role")).orElseThrow();
    List<String> teams =
        body.getJsonArray("teams", new JsonArray()).stream().map(String::valueOf).toList();
    Principal caller = request.principal();
    if (BootstrapAdmin.NAME.equals(name)) {
      // the configured admin token is stored under this name at every start; nobody else may hold
      // it
      throw ApiException.validationFailed(
          "the token name " + name + " is reserved for the configured admin token",
          new JsonArray().add(new JsonObject().put("field", "/name").put("message", "reserved")));
    }
    if (!caller.coversTeams(teams)) {
      throw ApiException.forbidden(
          "a team-scoped token may only create tokens for its own teams " + caller.teams());
    }
    String secret = Tokens.generate(TOKEN_PREFIX + role.wireName().charAt(0) + "_");
    return context
        .tx()
        .audited(
            request.audit("token.create", "tokens/" + name),
            conn -> store.insert(conn, name, role, teams, Tokens.hash(secret), caller.actor()),
            token ->
                new JsonObject()
                    .put("tokenId", request.principal().tokenId().toString())
                    .put("created", token.id().toString())
                    .put("role", role.wireName())
                    .put("teams", new JsonArray(teams)))
        .map(token -> Reply.created(token.toJson().put("token", secret)));
  }

  private Future<Reply> list(ApiRequest request) {
    Optional<JsonArray> after = request.cursor().map(c -> Cursors.decode(c, 2));
    after.ifPresent(key -> parseId(key.getString(1), "query.cursor"));
    Principal caller = request.principal();
    int limit = request.limit();
    return context
        .tx()
        .read(conn -> store.page(conn, caller.teamFilter(), after, limit))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        ApiTokenStore.StoredToken::toJson,
                        ApiTokenStore.StoredToken::cursorKey)));
  }

  private Future<Reply> revoke(ApiRequest request) {
    UUID id = parseId(request.path("id"), "path.id");
    Principal caller = request.principal();
    return context
        .tx()
        .audited(
            request.audit("token.revoke", "tokens/" + id),
            conn ->
                store
                    .findLiveForUpdate(conn, id)
                    .compose(
                        found -> {
                          if (found.isEmpty() || !caller.coversTeams(found.get().teams())) {
                            return Future.failedFuture(
                                ApiException.notFound("no live token " + id));
                          }
                          return store.revoke(conn, id).map(found.get());
                        }),
            token ->
                new JsonObject()
                    .put("tokenId", caller.tokenId().toString())
                    .put("revoked", token.name()))
        .map(
            token -> {
              context.authenticator().invalidateAll();
              return Reply.noContent();
            });
  }

  private static UUID parseId(String value, String field) {
    try {
      return UUID.fromString(value);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw ApiException.badRequest("not a token id", field);
    }
  }
}
