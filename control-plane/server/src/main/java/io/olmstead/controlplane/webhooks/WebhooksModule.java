package io.olmstead.controlplane.webhooks;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.config.WebhookSettings;
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
import io.vertx.sqlclient.SqlClient;
import java.util.List;

/**
 * {@code /webhooks}: receivers of rollout CloudEvents (admin). A team-scoped admin's webhook
 * carries one of its teams and gets only that team's rollouts; reads and deletes see only the
 * caller's teams' webhooks. Names are unique per team ({@link WebhookRefs} says which webhook a
 * name means). Registering the module starts the dispatcher on this replica.
 */
public final class WebhooksModule implements ApiModule {
  private final WebhookStore store = new WebhookStore();
  private WebhookSettings settings;
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    this.settings = ctx.config().webhooks();
    ApiModule.bind(builder, "createWebhook", this::create);
    ApiModule.bind(builder, "listWebhooks", this::list);
    ApiModule.bind(builder, "getWebhook", this::get);
    ApiModule.bind(builder, "deleteWebhook", this::delete);
    ApiModule.bind(builder, "listWebhookDeliveries", this::deliveries);
    new WebhookDispatcher(ctx.vertx(), ctx.pool(), settings, ctx.registry()).start();
  }

  private Future<Reply> create(ApiRequest request) {
    JsonObject body = request.body();
    String name = body.getString("name");
    List<WebhookSpec.Problem> problems = WebhookSpec.problems(body, settings.allowPrivate());
    Principal caller = request.principal();
    String team = team(body.getString("team"), caller, problems);
    if (!problems.isEmpty()) {
      JsonArray errors = new JsonArray();
      problems.forEach(
          p -> errors.add(new JsonObject().put("field", p.field()).put("message", p.message())));
      throw ApiException.validationFailed(
          problems.get(0).field() + ": " + problems.get(0).message(), errors);
    }
    WebhookSpec spec =
        new WebhookSpec(
            body.getString("url"),
            body.getJsonArray("events").stream().map(String::valueOf).toList(),
            body.getString("secret"));
    var audit = request.audit("webhook.create", "webhooks/" + name);
    audit
        .detail()
        .put("url", spec.url())
        .put("events", new JsonArray(spec.events()))
        .put("team", team);
    // the conflict names the caller's own team (or none): whether another team uses the name is
    // never told
    return context
        .tx()
        .audited(
            audit,
            conn ->
                store
                    .insert(conn, name, spec, team, caller.actor())
                    .compose(
                        id ->
                            id.isPresent()
                                ? store
                                    .find(conn, id.get())
                                    .map(row -> WebhookStore.toJson(row.orElseThrow()))
                                : Future.failedFuture(
                                    ApiException.conflict(
                                        "webhook "
                                            + name
                                            + (team == null ? " (fleet-wide)" : " of team " + team)
                                            + " exists; delete it first"))),
            null)
        .map(Reply::created);
  }

  /**
   * The webhook's team: a team-scoped caller names one of its teams (or has exactly one); others
   * may name any.
   */
  private static String team(String asked, Principal caller, List<WebhookSpec.Problem> problems) {
    if (!caller.teamScoped()) {
      return asked;
    }
    if (asked == null && caller.teams().size() == 1) {
      return caller.teams().get(0);
    }
    if (asked == null || !caller.teams().contains(asked)) {
      problems.add(
          new WebhookSpec.Problem(
              "/team", "a team-scoped token must name one of its teams " + caller.teams()));
    }
    return asked;
  }

  private Future<Reply> list(ApiRequest request) {
    JsonArray after = request.cursor().map(c -> Cursors.decode(c, 2)).orElse(null);
    int limit = request.limit();
    String[] teams = request.principal().teamFilter();
    return context
        .tx()
        .read(
            conn ->
                store.page(
                    conn,
                    after == null ? null : after.getString(0),
                    after == null ? null : after.getLong(1),
                    teams,
                    limit + 1))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        WebhookRefs.Found::view,
                        w -> new JsonArray().add(w.view().getString("name")).add(w.id()))));
  }

  private Future<Reply> get(ApiRequest request) {
    return context.tx().read(conn -> resolve(conn, request)).map(w -> Reply.ok(w.view()));
  }

  private Future<Reply> delete(ApiRequest request) {
    String name = request.path("name");
    var audit = request.audit("webhook.delete", "webhooks/" + name);
    request.query("team").ifPresent(team -> audit.detail().put("team", team));
    return context
        .tx()
        .audited(
            audit,
            conn -> resolve(conn, request).compose(w -> store.delete(conn, w.id()).map(w)),
            w -> audit.detail().copy().put("team", w.team()))
        .map(v -> Reply.noContent());
  }

  private Future<Reply> deliveries(ApiRequest request) {
    Long before = request.cursor().map(c -> Cursors.decode(c, 1).getLong(0)).orElse(null);
    int limit = request.limit();
    return context
        .tx()
        .read(
            conn ->
                resolve(conn, request)
                    .compose(w -> store.deliveries(conn, w.id(), before, limit + 1)))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(rows, limit, d -> d, d -> new JsonArray().add(d.getLong("id")))));
  }

  /** The webhook {@code /webhooks/{name}?team=} means to this caller (see WebhookRefs). */
  private Future<WebhookRefs.Found> resolve(SqlClient conn, ApiRequest request) {
    String name = request.path("name");
    return store
        .named(conn, name)
        .map(named -> WebhookRefs.choose(name, request.query("team"), request.principal(), named));
  }
}
