package io.olmstead.controlplane.webhooks;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiException;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.List;

/**
 * {@code /webhooks}: receivers of rollout CloudEvents (admin). A team-scoped admin's webhook carries one of its teams
 * and gets only that team's rollouts; reads and deletes see only the caller's teams' webhooks. Registering the module
 * starts the dispatcher on this replica.
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
      problems.forEach(p -> errors.add(new JsonObject().put("field", p.field()).put("message", p.message())));
      throw ApiException.validationFailed(problems.get(0).field() + ": " + problems.get(0).message(), errors);
    }
    WebhookSpec spec = new WebhookSpec(body.getString("url"),
        body.getJsonArray("events").stream().map(String::valueOf).toList(), body.getString("secret"));
    var audit = request.audit("webhook.create", "webhooks/" + name);
    audit.detail().put("url", spec.url()).put("events", new JsonArray(spec.events())).put("team", team);
    return context.tx().audited(audit, conn -> store.insert(conn, name, spec, team, caller.actor())
            .compose(inserted -> inserted ? store.find(conn, name).map(row -> WebhookStore.toJson(row.orElseThrow()))
                : Future.failedFuture(ApiException.conflict("webhook " + name + " exists; delete it first"))), null)
        .map(Reply::created);
  }

  /** The webhook's team: a team-scoped caller names one of its teams (or has exactly one); others may name any. */
  private static String team(String asked, Principal caller, List<WebhookSpec.Problem> problems) {
    if (!caller.teamScoped()) {
      return asked;
    }
    if (asked == null && caller.teams().size() == 1) {
      return caller.teams().get(0);
    }
    if (asked == null || !caller.teams().contains(asked)) {
      problems.add(new WebhookSpec.Problem("/team", "a team-scoped token must name one of its teams "
          + caller.teams()));
    }
    return asked;
  }

  private Future<Reply> list(ApiRequest request) {
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    int limit = request.limit();
    Principal caller = request.principal();
    return context.tx().read(conn -> store.page(conn, after, caller.teamScoped() ? caller.teams() : null, limit + 1))
        .map(rows -> Reply.ok(Cursors.page(rows, limit, w -> w, w -> new JsonArray().add(w.getString("name")))));
  }

  private Future<Reply> get(ApiRequest request) {
    String name = request.path("name");
    return context.tx().read(conn -> visible(conn, name, request.principal())).map(Reply::ok);
  }

  private Future<Reply> delete(ApiRequest request) {
    String name = request.path("name");
    return context.tx().audited(request.audit("webhook.delete", "webhooks/" + name),
        conn -> visible(conn, name, request.principal()).compose(w -> store.delete(conn, name)), null)
        .map(v -> Reply.noContent());
  }

  private Future<Reply> deliveries(ApiRequest request) {
    String name = request.path("name");
    Long before = request.cursor().map(c -> Cursors.decode(c, 1).getLong(0)).orElse(null);
    int limit = request.limit();
    return context.tx().read(conn -> visible(conn, name, request.principal())
            .compose(w -> store.deliveries(conn, name, before, limit + 1)))
        .map(rows -> Reply.ok(Cursors.page(rows, limit, d -> d, d -> new JsonArray().add(d.getLong("id")))));
  }

  private Future<JsonObject> visible(io.vertx.sqlclient.SqlClient conn, String name, Principal caller) {
    return store.find(conn, name).map(found -> caller.visible(found.map(WebhookStore::toJson),
        w -> w.getString("team"), "no webhook " + name));
  }
}
