package io.olmstead.controlplane.enrollment;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.clusters.ClusterStore;
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
import io.vertx.sqlclient.SqlConnection;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code /enrollment-tokens}: create (secret shown once), list, get, revoke. A team-scoped admin's
 * tokens must carry the {@value Principal#TEAM_LABEL} label of one of its teams, so what enrolls
 * with them lands in that team, and may be bound only to cluster names that are free or already in
 * its teams; it lists and sees only its teams' tokens.
 */
public final class EnrollmentModule implements ApiModule {
  public static final String TOKEN_PREFIX = "olm_enroll_";

  private final EnrollmentTokenStore store = new EnrollmentTokenStore();
  private final ClusterStore clusters = new ClusterStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "createEnrollmentToken", this::create);
    ApiModule.bind(builder, "listEnrollmentTokens", this::list);
    ApiModule.bind(builder, "getEnrollmentToken", this::get);
    ApiModule.bind(builder, "revokeEnrollmentToken", this::revoke);
  }

  private Future<Reply> create(ApiRequest request) {
    JsonObject body = request.body();
    JsonObject labels = body.getJsonObject("labels", new JsonObject());
    Principal caller = request.principal();
    if (caller.teamScoped() && !caller.mayAccessTeam(labels.getString(Principal.TEAM_LABEL))) {
      throw ApiException.forbidden(
          "a team-scoped token must label enrollment tokens with "
              + Principal.TEAM_LABEL
              + " set to one of "
              + caller.teams());
    }
    String secret = Tokens.generate(TOKEN_PREFIX);
    String clusterName = body.getString("clusterName");
    return context
        .tx()
        .audited(
            request.audit("enrollment-token.create", "enrollment-tokens"),
            conn ->
                checkBinding(conn, caller, clusterName, labels.getString(Principal.TEAM_LABEL))
                    .compose(
                        v ->
                            store.insert(
                                conn,
                                Tokens.hash(secret),
                                labels,
                                clusterName,
                                body.getInteger("maxUses"),
                                body.getLong("ttlSeconds"),
                                caller.actor())),
            token ->
                new JsonObject()
                    .put("tokenId", caller.tokenId().toString())
                    .put("created", token.id().toString())
                    .put("labels", labels)
                    .put("maxUses", token.maxUses())
                    .put("expiresAt", token.expiresAt().toString()))
        .map(token -> Reply.created(token.toJson().put("token", secret)));
  }

  private Future<Reply> list(ApiRequest request) {
    Optional<JsonArray> after = request.cursor().map(c -> Cursors.decode(c, 2));
    after.ifPresent(EnrollmentModule::checkCursor);
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
                        EnrollmentTokenStore.EnrollmentToken::toJson,
                        EnrollmentTokenStore.EnrollmentToken::cursorKey)));
  }

  private Future<Reply> get(ApiRequest request) {
    UUID id = UUID.fromString(request.path("id"));
    Principal caller = request.principal();
    return context
        .tx()
        .read(conn -> store.find(conn, id))
        .map(
            found ->
                Reply.ok(
                    caller
                        .visible(
                            found,
                            EnrollmentTokenStore.EnrollmentToken::team,
                            "no enrollment token " + id)
                        .toJson()));
  }

  private Future<Reply> revoke(ApiRequest request) {
    UUID id = UUID.fromString(request.path("id"));
    Principal caller = request.principal();
    return context
        .tx()
        .audited(
            request.audit("enrollment-token.revoke", "enrollment-tokens/" + id),
            conn ->
                store
                    .find(conn, id)
                    .compose(
                        found -> {
                          if (caller
                                  .visible(
                                      found,
                                      EnrollmentTokenStore.EnrollmentToken::team,
                                      "no live enrollment token " + id)
                                  .revokedAt()
                              != null) {
                            return Future.failedFuture(
                                ApiException.notFound("no live enrollment token " + id));
                          }
                          return store
                              .revoke(conn, id)
                              .map(
                                  revoked ->
                                      revoked.orElseThrow(
                                          () ->
                                              ApiException.notFound(
                                                  "no live enrollment token " + id)));
                        }),
            null)
        .map(token -> Reply.noContent());
  }

  /**
   * A token bound to the name of an existing cluster re-enrolls that cluster, so it must not take
   * the cluster from another team: a team-scoped caller may bind only names that are free or
   * already in its teams, and a token's team label must be the cluster's team (enrollment checks
   * the same again, since the cluster may change meanwhile).
   */
  private Future<Void> checkBinding(
      SqlConnection conn, Principal caller, String clusterName, String team) {
    if (clusterName == null) {
      return Future.succeededFuture();
    }
    return clusters
        .find(conn, clusterName)
        .map(
            found -> {
              if (found.isEmpty()) {
                return null;
              }
              String current = found.get().labelMap().get(Principal.TEAM_LABEL);
              if (!caller.mayAccessTeam(current)) {
                throw ApiException.forbidden(
                    "cluster name "
                        + clusterName
                        + " is taken by a cluster outside the teams "
                        + caller.teams()
                        + "; a team-scoped token may bind only free names or its teams' clusters");
              }
              if (team != null && !team.equals(current)) {
                throw ApiException.conflict(
                    "cluster "
                        + clusterName
                        + " is "
                        + (current == null ? "in no team" : "in team " + current)
                        + "; enrolling it cannot move it to team "
                        + team
                        + " (change its team with PATCH /clusters/"
                        + clusterName
                        + ")");
              }
              return null;
            });
  }

  private static void checkCursor(JsonArray key) {
    try {
      OffsetDateTime.parse(key.getString(0));
      UUID.fromString(key.getString(1));
    } catch (DateTimeParseException
        | IllegalArgumentException
        | ClassCastException
        | NullPointerException e) {
      throw ApiException.badRequest("the cursor is not one this server issued", "query.cursor");
    }
  }
}
