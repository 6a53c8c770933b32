package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.subscription.Placements;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /approvals}: approves one bundle of a {@code Manual} subscription on every cluster
 * that waits for it (its agent reports {@code RequiresApproval} for exactly that bundle), that the
 * subscription places on, that the optional selector picks and that the caller's teams may touch;
 * one transaction, one audit entry. The per-cluster {@code POST /clusters/{name}/approvals} stays
 * for approving ahead of a report.
 */
public final class BulkApprovalsModule implements ApiModule {
  // the audit entry names at most this many clusters (and counts them all)
  private static final int AUDITED_NAMES = 100;
  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final ApprovalStore approvals = new ApprovalStore();
  private ApiContext context;

  /**
   * What a bulk approval did: approved now, approved with this bundle before, and the selection
   * that was used.
   */
  private record Outcome(
      String subscription, String bundle, List<String> approved, List<String> unchanged) {
    JsonObject toJson() {
      return new JsonObject()
          .put("subscription", subscription)
          .put("bundle", bundle)
          .put("approved", new JsonArray(approved))
          .put("alreadyApproved", new JsonArray(unchanged));
    }
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "approveWaitingClusters", this::approve);
  }

  private Future<Reply> approve(ApiRequest request) {
    Principal caller = request.principal();
    JsonObject body = request.body();
    String subscription = body.getString("subscription");
    String bundle = body.getString("bundle");
    String selectorText = body.getString("selector", "");
    LabelSelector selector = parseSelector(selectorText);
    AuditEntry audit = request.audit("approvals.bulk", "subscriptions/" + subscription);
    audit.detail().put("bundle", bundle).put("selector", selectorText);
    return context
        .tx()
        .audited(
            audit,
            conn ->
                subscriptions
                    .get(conn, subscription)
                    .map(found -> visible(found, subscription, caller))
                    .compose(
                        sub ->
                            ChannelBundles.requireInChannel(conn, sub.spec(), bundle)
                                .compose(v -> approvals.waiting(conn, subscription, bundle))
                                .map(
                                    waiting ->
                                        waiting.stream()
                                            .filter(
                                                w ->
                                                    caller.mayAccessTeam(
                                                        w.labels().get(Principal.TEAM_LABEL)))
                                            .filter(
                                                w ->
                                                    Placements.selects(
                                                        sub.spec(), w.cluster(), w.labels()))
                                            .filter(w -> selector.matches(w.labels()))
                                            .map(ApprovalStore.Waiting::cluster)
                                            .toList()))
                    .compose(
                        picked ->
                            approvals
                                .approveMany(conn, picked, subscription, bundle, caller.actor())
                                .map(
                                    changed ->
                                        new Outcome(
                                            subscription,
                                            bundle,
                                            changed,
                                            picked.stream()
                                                .filter(c -> !changed.contains(c))
                                                .toList()))),
            outcome ->
                audit
                    .detail()
                    .copy()
                    .put("approvedCount", outcome.approved().size())
                    .put(
                        "approved",
                        new JsonArray(outcome.approved().stream().limit(AUDITED_NAMES).toList())))
        .map(outcome -> Reply.ok(outcome.toJson()));
  }

  private static Subscription visible(Optional<Subscription> found, String name, Principal caller) {
    return found
        .filter(s -> caller.mayAccessTeam(s.spec().team()))
        .orElseThrow(
            () -> ApprovalsModule.invalidSubscription("subscription " + name + " does not exist"));
  }

  private static LabelSelector parseSelector(String text) {
    try {
      return LabelSelector.parse(text);
    } catch (IllegalArgumentException e) {
      String message = "invalid label selector: " + e.getMessage();
      throw ApiException.validationFailed(
          message,
          new JsonArray().add(new JsonObject().put("field", "/selector").put("message", message)));
    }
  }
}
