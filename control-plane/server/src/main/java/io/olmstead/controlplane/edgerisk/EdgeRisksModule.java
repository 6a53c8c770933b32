package io.olmstead.controlplane.edgerisk;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.db.DbTime;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code /edge-risks}: the upgrade edges that failed somewhere, with their evidence (a caller sees
 * its teams' clusters and only the counts of other teams'), a person's acceptance of a risk for
 * their teams, and clearing a risk's evidence (a team-scoped caller clears its teams' evidence
 * only). Every change is audited in its transaction.
 */
public final class EdgeRisksModule implements ApiModule {
  private final EdgeRiskStore store = new EdgeRiskStore();
  private final Clock clock;
  private ApiContext context;
  private EdgeRiskRule.Params params;

  public EdgeRisksModule(Clock clock) {
    this.clock = clock;
  }

  /** The rule's parameters from the settings. */
  public static EdgeRiskRule.Params params(EdgeRiskSettings settings) {
    return new EdgeRiskRule.Params(
        Duration.ofDays(settings.halfLifeDays()), settings.successesPerFailure());
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    this.params = params(ctx.config().edgeRisk());
    ApiModule.bind(builder, "listEdgeRisks", this::list);
    ApiModule.bind(builder, "getEdgeRisk", this::get);
    ApiModule.bind(builder, "acceptEdgeRisk", this::accept);
    ApiModule.bind(builder, "clearEdgeRisk", this::clear);
  }

  private Future<Reply> list(ApiRequest request) {
    Principal caller = request.principal();
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    String pkg = request.query("package").orElse(null);
    int limit = request.limit();
    Instant now = now();
    return context
        .tx()
        .read(
            conn ->
                store
                    .riskIds(conn, after, pkg, limit + 1)
                    .compose(
                        ids ->
                            Future.all(
                                    store.shown(conn, ids, caller.teamFilter()),
                                    store.acceptances(conn, ids))
                                .map(
                                    all -> {
                                      Map<String, EdgeRiskStore.Shown> shown = all.resultAt(0);
                                      List<EdgeRiskStore.Acceptance> accepted = all.resultAt(1);
                                      return Cursors.page(
                                          ids,
                                          limit,
                                          id ->
                                              EdgeRiskView.toJson(
                                                  id,
                                                  shown.get(id),
                                                  accepted.stream()
                                                      .filter(a -> a.riskId().equals(id))
                                                      .toList(),
                                                  visible(caller),
                                                  now,
                                                  params),
                                          id -> new JsonArray().add(id));
                                    })))
        .map(Reply::ok);
  }

  private Future<Reply> get(ApiRequest request) {
    String id = request.path("id");
    return context.tx().read(conn -> view(conn, id, request.principal())).map(Reply::ok);
  }

  private Future<Reply> accept(ApiRequest request) {
    String id = request.path("id");
    Principal caller = request.principal();
    String comment = request.body().getString("comment");
    List<String> teams = acceptingTeams(caller, request.body().getString("team"));
    Instant at = now();
    AuditEntry audit = request.audit("edgerisk.accept", "edge-risks/" + id);
    audit.detail().put("teams", new JsonArray(teams)).put("comment", comment);
    return context
        .tx()
        .audited(
            audit,
            conn ->
                store
                    .onRisk(conn, id)
                    .compose(
                        evidence -> {
                          if (evidence.isEmpty()) {
                            throw ApiException.notFound("edge risk " + id + " does not exist");
                          }
                          return store
                              .accept(conn, id, teams, caller.actor(), at, comment)
                              .compose(v -> view(conn, id, caller));
                        }),
            null)
        .map(Reply::ok);
  }

  private Future<Reply> clear(ApiRequest request) {
    String id = request.path("id");
    Principal caller = request.principal();
    AuditEntry audit = request.audit("edgerisk.clear", "edge-risks/" + id);
    return context
        .tx()
        .audited(
            audit,
            conn ->
                store
                    .onRisk(conn, id)
                    .compose(
                        evidence -> {
                          if (evidence.isEmpty()) {
                            throw ApiException.notFound("edge risk " + id + " does not exist");
                          }
                          if (evidence.stream().noneMatch(e -> visible(caller).test(e.team()))) {
                            throw ApiException.forbidden(
                                "the evidence on edge risk "
                                    + id
                                    + " is other teams': accept the risk for "
                                    + "your teams instead");
                          }
                          return store.clear(conn, id, caller.teamFilter());
                        }),
            deleted -> audit.detail().copy().put("deleted", deleted))
        .map(v -> Reply.noContent());
  }

  private Future<JsonObject> view(SqlConnection conn, String id, Principal caller) {
    return Future.all(
            store.shown(conn, List.of(id), caller.teamFilter()),
            store.acceptances(conn, List.of(id)))
        .map(
            all -> {
              Map<String, EdgeRiskStore.Shown> shown = all.resultAt(0);
              if (!shown.containsKey(id)) {
                throw ApiException.notFound("edge risk " + id + " does not exist");
              }
              return EdgeRiskView.toJson(
                  id, shown.get(id), all.resultAt(1), visible(caller), now(), params);
            });
  }

  /**
   * The teams an acceptance is for: the one named (a team-scoped caller may name only its own),
   * else every team of a team-scoped caller, else every team ({@code *}).
   */
  static List<String> acceptingTeams(Principal caller, String team) {
    if (team != null) {
      if (!caller.mayAccessTeam(team)) {
        throw ApiException.validationFailed(
            "team " + team + " is not one of yours",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("field", "/team")
                        .put("message", "team " + team + " is not one of yours")));
      }
      return List.of(team);
    }
    return caller.teamScoped() ? caller.teams() : List.of("*");
  }

  /** Whose evidence the caller sees in full: its teams' (an unscoped caller: every team's). */
  static Predicate<String> visible(Principal caller) {
    return team -> !caller.teamScoped() || caller.teams().contains(team);
  }

  private Instant now() {
    return DbTime.instant(clock);
  }
}
