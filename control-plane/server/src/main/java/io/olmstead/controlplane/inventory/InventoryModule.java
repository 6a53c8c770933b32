package io.olmstead.controlplane.inventory;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.clusters.Cluster;
import io.olmstead.controlplane.clusters.ClusterStore;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.selector.LabelSelector;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.Optional;

/**
 * {@code /clusters/{name}/inventory} and {@code /inventory}: what agents reported, filtered by team
 * like every read (another team's cluster is the same 404 as none; the fleet aggregate counts only
 * the caller's teams' clusters).
 */
final class InventoryModule implements ApiModule {
  private final ClusterStore clusters = new ClusterStore();
  private final InventoryStore store;
  private ApiContext context;

  InventoryModule(InventoryStore store) {
    this.store = store;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "getClusterInventory", this::cluster);
    ApiModule.bind(builder, "getFleetInventory", this::fleet);
  }

  private Future<Reply> cluster(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    return context
        .tx()
        .read(
            conn ->
                clusters
                    .find(conn, name)
                    .compose(
                        found -> {
                          Cluster cluster =
                              caller.visible(
                                  found,
                                  c -> c.labelMap().get(Principal.TEAM_LABEL),
                                  "no cluster " + name);
                          return store.document(conn, cluster.name());
                        }))
        .map(doc -> Reply.ok(json(name, doc)));
  }

  private static JsonObject json(String cluster, Optional<InventoryStore.Document> doc) {
    JsonObject out = new JsonObject().put("cluster", cluster);
    if (doc.isEmpty()) {
      return out.putNull("reportedAt").put("truncated", false).put("operators", new JsonArray());
    }
    JsonArray operators = doc.get().operators().copy();
    // every operator answers customResources, even one the agent found none for
    operators.forEach(
        o -> {
          if (o instanceof JsonObject op && !op.containsKey("customResources")) {
            op.put("customResources", new JsonArray());
          }
        });
    return out.put("reportedAt", doc.get().reportedAt().toInstant().toString())
        .put("truncated", doc.get().truncated())
        .put("operators", operators);
  }

  private Future<Reply> fleet(ApiRequest request) {
    LabelSelector selector;
    try {
      selector = LabelSelector.parse(request.query("selector").orElse(""));
    } catch (LabelSelector.SelectorException e) {
      throw ApiException.badRequest("invalid label selector: " + e.getMessage(), "query.selector");
    }
    String[] teams = teams(request.principal(), request.query("team"));
    if (teams != null && teams.length == 0) {
      return Future.succeededFuture(
          Reply.ok(
              new JsonObject()
                  .put("items", new JsonArray())
                  .putNull("nextCursor")
                  .put("truncated", false)));
    }
    JsonArray after = request.cursor().map(c -> Cursors.decode(c, 2)).orElse(null);
    return context
        .tx()
        .read(conn -> FleetInventory.query(conn, selector, teams, request.limit(), after))
        .map(Reply::ok);
  }

  /**
   * The teams whose clusters count: the caller's, narrowed to {@code team} when given (null: every
   * team).
   */
  static String[] teams(Principal caller, Optional<String> team) {
    if (team.isEmpty()) {
      return caller.teamFilter();
    }
    return caller.mayAccessTeam(team.get()) ? new String[] {team.get()} : new String[0];
  }
}
