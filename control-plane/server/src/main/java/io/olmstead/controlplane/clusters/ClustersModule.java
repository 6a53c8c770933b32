package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.ETags;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.selector.LabelSelector;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /clusters}: list (label selector, status, name prefix, subscription phase and version,
 * cursor), get, merge-patch labels under {@code If-Match}, delete. Team-scoped callers see only
 * clusters labelled with one of their teams and cannot move a cluster out of them.
 */
public final class ClustersModule implements ApiModule {
  public static final int MAX_LABELS = 64;

  private final ClusterStore store = new ClusterStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "listClusters", this::list);
    ApiModule.bind(builder, "getCluster", this::get);
    ApiModule.bind(builder, "patchCluster", this::patch);
    ApiModule.bind(builder, "deleteCluster", this::delete);
  }

  private Future<Reply> list(ApiRequest request) {
    LabelSelector selector;
    try {
      selector = LabelSelector.parse(request.query("selector").orElse(""));
    } catch (LabelSelector.SelectorException e) {
      throw ApiException.badRequest("invalid label selector: " + e.getMessage(), "query.selector");
    }
    Optional<String> after =
        request
            .cursor()
            .map(c -> Cursors.decode(c, 1).getValue(0))
            .map(v -> v instanceof String s ? s : null);
    if (request.cursor().isPresent() && after.isEmpty()) {
      throw ApiException.badRequest("the cursor is not one this server issued", "query.cursor");
    }
    int limit = request.limit();
    Optional<String> subscription = request.query("subscription");
    for (String field : new String[] {"phase", "version"}) {
      if (request.query(field).isPresent() && subscription.isEmpty()) {
        throw ApiException.badRequest(
            field + " filters the clusters reporting a subscription: give subscription too",
            "query." + field);
      }
    }
    ClusterStore.Query query =
        new ClusterStore.Query(
            selector,
            request.query("status"),
            request.principal().teams(),
            after,
            limit,
            request.query("namePrefix"),
            subscription,
            request.query("phase"),
            request.query("version"));
    return context
        .tx()
        .read(conn -> store.page(conn, query))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows, limit, Cluster::toJson, c -> new JsonArray().add(c.name()))));
  }

  private Future<Reply> get(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    return context
        .tx()
        .read(conn -> store.find(conn, name))
        .map(found -> visible(found, name, caller))
        .map(cluster -> Reply.ok(cluster.toJson()).withEtag(cluster.resourceVersion()));
  }

  private Future<Reply> patch(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    JsonObject patch = request.body().getJsonObject("labels", new JsonObject());
    return context
        .tx()
        .audited(
            request.audit("cluster.patch", "clusters/" + name),
            conn ->
                store
                    .findForUpdate(conn, name)
                    .compose(
                        found -> {
                          Cluster current = visible(found, name, caller);
                          ETags.check(request.ifMatch(), current.resourceVersion());
                          JsonObject labels = merge(current.labels(), patch);
                          if (!caller.mayAccessLabels(stringMap(labels))) {
                            throw ApiException.forbidden(
                                "a team-scoped token cannot move a cluster out of its teams "
                                    + caller.teams());
                          }
                          return labels.equals(current.labels())
                              ? Future.succeededFuture(current)
                              : store.setLabels(conn, name, labels);
                        }),
            cluster ->
                request
                    .audit("cluster.patch", "clusters/" + name)
                    .detail()
                    .put("patch", patch)
                    .put("resourceVersion", cluster.resourceVersion()))
        .map(cluster -> Reply.ok(cluster.toJson()).withEtag(cluster.resourceVersion()));
  }

  private Future<Reply> delete(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    return context
        .tx()
        .audited(
            request.audit("cluster.delete", "clusters/" + name),
            conn ->
                store
                    .findForUpdate(conn, name)
                    .compose(
                        found -> {
                          Cluster current = visible(found, name, caller);
                          ETags.check(request.ifMatch(), current.resourceVersion());
                          return store.delete(conn, name).map(current);
                        }),
            null)
        .map(cluster -> Reply.noContent());
  }

  /**
   * The cluster when it exists and the caller may see it; 404 otherwise, the same answer for
   * another team's cluster as for none, so a team-scoped caller cannot learn which names other
   * teams use.
   */
  static Cluster visible(Optional<Cluster> found, String name, Principal caller) {
    return caller.visible(
        found, cluster -> cluster.labelMap().get(Principal.TEAM_LABEL), "no cluster " + name);
  }

  /** RFC 7396 on a flat object: null removes a key, anything else sets it. */
  static JsonObject merge(JsonObject labels, JsonObject patch) {
    JsonObject merged = labels.copy();
    patch.forEach(
        entry -> {
          if (entry.getValue() == null) {
            merged.remove(entry.getKey());
          } else {
            merged.put(entry.getKey(), entry.getValue());
          }
        });
    if (merged.size() > MAX_LABELS) {
      throw ApiException.validationFailed(
          "a cluster has at most " + MAX_LABELS + " labels",
          new JsonArray()
              .add(
                  new JsonObject()
                      .put("field", "/labels")
                      .put("message", "the result would have " + merged.size() + " labels")));
    }
    return merged;
  }

  private static Map<String, String> stringMap(JsonObject labels) {
    Map<String, String> map = new LinkedHashMap<>();
    labels.forEach(e -> map.put(e.getKey(), String.valueOf(e.getValue())));
    return map;
  }
}
