package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.clusters.Cluster;
import io.olmstead.controlplane.clusters.ClusterStore;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.subscription.CsvDetailsView;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

/**
 * {@code GET /clusters/{name}/subscriptions}: what the cluster's agent last reported for each
 * subscription it runs (version, phase, reason, message, conditions, requirement status, webhooks,
 * certificates), for the dashboard's Cluster page. 404 for a cluster the caller may not see; a
 * team-scoped caller sees only its teams' subscriptions.
 */
public final class ClusterSubscriptions implements ApiModule {
  /** A cluster runs at most this many subscriptions in an answer (the schema's bound). */
  static final int MAX = 1000;

  private static final String STATUS =
      "SELECT s.subscription, s.installed_bundle, s.installed_version, "
          + "s.target_version, s.phase, s.reason, s.message, s.conditions, s.observed_generation, s.updated_at, s.csv, "
          + "sub.package, sub.generation FROM subscription_status s LEFT JOIN subscriptions sub ON sub.name = s.subscription "
          + "WHERE s.cluster = $1 AND NOT s.gone AND ($2::text[] IS NULL OR sub.team = ANY($2::text[])) "
          + "ORDER BY s.subscription LIMIT "
          + MAX;
  private final ClusterStore clusters = new ClusterStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "listClusterSubscriptions", this::list);
  }

  private Future<Reply> list(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    return context
        .tx()
        .read(
            conn ->
                clusters
                    .find(conn, name)
                    .map(
                        found ->
                            caller.visible(
                                found,
                                (Cluster c) -> c.labelMap().get(Principal.TEAM_LABEL),
                                "no cluster " + name))
                    .compose(
                        cluster ->
                            conn.preparedQuery(STATUS)
                                .execute(Tuple.of(name, (Object) caller.teamFilter())))
                    .map(
                        rows -> {
                          JsonArray items = new JsonArray();
                          rows.forEach(r -> items.add(toJson(r)));
                          return new JsonObject().put("cluster", name).put("items", items);
                        }))
        .map(Reply::ok);
  }

  private static JsonObject toJson(Row r) {
    return CsvDetailsView.addTo(
        new JsonObject()
            .put("subscription", r.getString("subscription"))
            .put("package", r.getString("package"))
            .put("installedBundle", r.getString("installed_bundle"))
            .put("installedVersion", r.getString("installed_version"))
            .put("targetVersion", r.getString("target_version"))
            .put("phase", r.getString("phase"))
            .put("reason", r.getString("reason"))
            .put("message", r.getString("message"))
            .put(
                "conditions", r.getValue("conditions") instanceof JsonArray a ? a : new JsonArray())
            .put("observedGeneration", r.getLong("observed_generation"))
            .put("generation", r.getLong("generation"))
            .put("updatedAt", r.getOffsetDateTime("updated_at").toInstant().toString()),
        r.getValue("csv"));
  }
}
