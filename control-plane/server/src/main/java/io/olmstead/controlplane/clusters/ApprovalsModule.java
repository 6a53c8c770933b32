package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.subscription.Placements;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.Optional;

/**
 * {@code /clusters/{name}/approvals}: manual approval of exactly one bundle of a subscription that
 * places on the cluster (the agent gateway pushes it to the agent), and the list of a cluster's
 * approvals. Team-scoped callers act only on their teams' clusters and subscriptions.
 */
public final class ApprovalsModule implements ApiModule {
  private final ClusterStore clusters = new ClusterStore();
  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final ApprovalStore approvals = new ApprovalStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "approveClusterBundle", this::approve);
    ApiModule.bind(builder, "listClusterApprovals", this::list);
  }

  private Future<Reply> approve(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    String subscription = request.body().getString("subscription");
    String bundle = request.body().getString("bundle");
    AuditEntry audit = request.audit("cluster.approve", "clusters/" + name);
    audit.detail().put("subscription", subscription).put("bundle", bundle);
    return context
        .tx()
        .audited(
            audit,
            conn ->
                clusters
                    .find(conn, name)
                    .map(found -> ClustersModule.visible(found, name, caller))
                    .compose(
                        cluster ->
                            subscriptions
                                .get(conn, subscription)
                                .map(found -> placed(found, subscription, cluster, caller)))
                    .compose(found -> ChannelBundles.requireInChannel(conn, found.spec(), bundle))
                    .compose(
                        v -> approvals.approve(conn, name, subscription, bundle, caller.actor())),
            approved ->
                audit
                    .detail()
                    .copy()
                    .put("previousBundle", approved.previousBundle())
                    .put("changed", approved.changed()))
        .map(
            approved ->
                approved.changed()
                    ? Reply.created(approved.approval().toJson())
                    : Reply.ok(approved.approval().toJson()));
  }

  private Future<Reply> list(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    int limit = request.limit();
    return context
        .tx()
        .read(
            conn ->
                clusters
                    .find(conn, name)
                    .map(found -> ClustersModule.visible(found, name, caller))
                    .compose(
                        cluster ->
                            approvals.page(
                                conn,
                                name,
                                after,
                                caller.teamScoped() ? caller.teams() : null,
                                limit + 1)))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        ClusterApproval::toJson,
                        a -> new JsonArray().add(a.subscription()))));
  }

  /**
   * The subscription when the caller may see it and its placement selects the cluster (the same
   * rule desired state uses); 422 on {@code /subscription} otherwise, since it is the body that
   * names something unusable here.
   */
  static Subscription placed(
      Optional<Subscription> found, String name, Cluster cluster, Principal caller) {
    Subscription subscription =
        found
            .filter(s -> caller.mayAccessTeam(s.spec().team()))
            .orElseThrow(() -> invalidSubscription("subscription " + name + " does not exist"));
    if (!Placements.selects(subscription.spec(), cluster.name(), cluster.labelMap())) {
      throw invalidSubscription(
          "subscription " + name + " does not place on cluster " + cluster.name());
    }
    return subscription;
  }

  static ApiException invalidSubscription(String message) {
    return ApiException.validationFailed(
        message,
        new JsonArray()
            .add(new JsonObject().put("field", "/subscription").put("message", message)));
  }
}
