package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /rollouts} and {@code POST /rollouts/{id}/retry}: the two ways a rollout starts, each
 * checked (analysis queries, bundles unpacked, targets in dependency order), inserted and audited
 * in one transaction, then answered as read back.
 */
final class RolloutStartRoutes {
  private final ApiContext context;
  private final RolloutStore store;
  private final RolloutQueries queries;
  private final RolloutPlanLoader planning;
  private final RolloutStarts starts;
  private final RolloutBundles bundles;
  private final RolloutMetrics metrics;
  private final AnalysisChecks checks;
  private final TargetBundles targetBundles;

  RolloutStartRoutes(
      ApiContext context,
      RolloutStore store,
      RolloutQueries queries,
      RolloutPlanLoader planning,
      RolloutStarts starts,
      RolloutBundles bundles,
      RolloutMetrics metrics,
      AnalysisChecks checks,
      TargetBundles targetBundles) {
    this.context = context;
    this.store = store;
    this.queries = queries;
    this.planning = planning;
    this.starts = starts;
    this.bundles = bundles;
    this.metrics = metrics;
    this.checks = checks;
    this.targetBundles = targetBundles;
  }

  Future<Reply> create(ApiRequest request) {
    if (RolloutTargets.listed(request.body())) {
      return createTargets(request);
    }
    RolloutPlanLoader.Request body = RolloutPlanLoader.Request.parse(request.body());
    String id = RolloutStarts.newId();
    Principal caller = request.principal();
    return queriesParse(request, body, id)
        .compose(checked -> bundlesReady(request, body, id, "rollout.create"))
        .compose(
            ready ->
                context
                    .tx()
                    .audited(
                        request.audit("rollout.create", "rollouts/" + id),
                        conn -> starts.insert(conn, body, caller, id),
                        s ->
                            new JsonObject()
                                .put("subscription", s.rollout().subscription())
                                .put("targetVersion", s.rollout().targetVersion())
                                .put("declared", s.declared())))
        .onSuccess(
            s ->
                metrics
                    .created()) // committed: the engine never sees a rollout's creation as a step
        .compose(
            s ->
                context
                    .tx()
                    .read(conn -> queries.get(conn, id, caller))
                    .map(json -> json.put("declaredVersionChanged", s.declared())))
        .map(json -> new Reply(201, json, Map.of("Location", "/api/v1/rollouts/" + id)));
  }

  /**
   * A rollout of the listed targets: checked and put in dependency order (refusals audited), each
   * target's bundles unpacked, then one rollout per target inserted and linked in one transaction;
   * answered as the first (a provider).
   */
  private Future<Reply> createTargets(ApiRequest request) {
    JsonObject body = request.body();
    List<RolloutTargets.Target> targets = RolloutTargets.parse(body);
    RolloutPlanLoader.Request first =
        RolloutPlanLoader.Request.parse(RolloutTargets.single(body, targets.get(0)));
    String id = RolloutStarts.newId();
    Principal caller = request.principal();
    return queriesParse(request, first, id)
        .compose(
            checked ->
                context
                    .tx()
                    .read(conn -> targetBundles.ordered(conn, targets, caller))
                    .recover(
                        e ->
                            context
                                .tx()
                                .<List<RolloutTargets.Target>>audited(
                                    request.audit("rollout.create", "rollouts/" + id),
                                    conn -> Future.failedFuture(e),
                                    null)))
        .compose(
            ordered -> {
              Future<Void> ready = Future.succeededFuture();
              for (RolloutTargets.Target t : ordered) {
                RolloutPlanLoader.Request one =
                    RolloutPlanLoader.Request.parse(RolloutTargets.single(body, t));
                ready = ready.compose(v -> bundlesReady(request, one, id, "rollout.create"));
              }
              List<String> ids = new ArrayList<>(List.of(id));
              while (ids.size() < ordered.size()) {
                ids.add(RolloutStarts.newId());
              }
              return ready.compose(
                  v ->
                      context
                          .tx()
                          .audited(
                              request.audit("rollout.create", "rollouts/" + id),
                              conn -> starts.insertGroup(conn, ordered, body, caller, ids),
                              started -> {
                                JsonArray moved = new JsonArray();
                                started.forEach(
                                    s ->
                                        moved.add(
                                            new JsonObject()
                                                .put("rollout", s.rollout().id())
                                                .put("subscription", s.rollout().subscription())
                                                .put("targetVersion", s.rollout().targetVersion())
                                                .put("declared", s.declared())));
                                return new JsonObject().put("targets", moved);
                              }));
            })
        .onSuccess(started -> started.forEach(s -> metrics.created()))
        .compose(
            started ->
                context
                    .tx()
                    .read(conn -> queries.get(conn, id, caller))
                    .map(
                        json ->
                            json.put(
                                "declaredVersionChanged",
                                started.stream().anyMatch(RolloutStarts.Started::declared))))
        .map(json -> new Reply(201, json, Map.of("Location", "/api/v1/rollouts/" + id)));
  }

  /**
   * Starts a new rollout of a rolled-back, failed or aborted one's subscription to the same target
   * under the same strategy, while the subscription still declares that target (a pinned one) and
   * nothing else moves it.
   */
  Future<Reply> retry(ApiRequest request) {
    String of = request.path("id");
    return context
        .tx()
        .read(conn -> store.groupIds(conn, of))
        .compose(group -> group.isEmpty() ? retryOne(request) : retryGroup(request, group));
  }

  /**
   * Starts every target of an ended multi-target rollout again as a new group (ids in dependency
   * order), audited as one {@code rollout.retry}; each target's bundles are checked (and requested)
   * first, as a creation's are.
   */
  private Future<Reply> retryGroup(ApiRequest request, List<String> group) {
    String of = request.path("id");
    Principal caller = request.principal();
    List<String> ids = new ArrayList<>();
    group.forEach(g -> ids.add(RolloutStarts.newId()));
    Future<Void> ready =
        context
            .tx()
            .read(conn -> GroupRetry.load(store, conn, of, group, caller))
            .recover(e -> Future.succeededFuture(List.of())) // refused below, audited there
            .compose(
                olds -> {
                  Future<Void> all = Future.succeededFuture();
                  for (Rollout old : olds) {
                    all =
                        all.compose(
                            v ->
                                bundlesReady(
                                    request,
                                    RolloutStarts.retried(old),
                                    ids.get(0),
                                    "rollout.retry"));
                  }
                  return all;
                });
    return ready
        .compose(
            checked ->
                context
                    .tx()
                    .audited(
                        request.audit("rollout.retry", "rollouts/" + ids.get(0)),
                        conn ->
                            GroupRetry.load(store, conn, of, group, caller)
                                .compose(olds -> starts.retryGroup(conn, olds, caller, ids)),
                        started -> {
                          JsonArray moved = new JsonArray();
                          started.forEach(
                              s ->
                                  moved.add(
                                      new JsonObject()
                                          .put("rollout", s.rollout().id())
                                          .put("subscription", s.rollout().subscription())
                                          .put("targetVersion", s.rollout().targetVersion())));
                          return new JsonObject().put("retryOf", of).put("targets", moved);
                        }))
        .onSuccess(started -> started.forEach(s -> metrics.created()))
        .compose(started -> context.tx().read(conn -> queries.get(conn, ids.get(0), caller)))
        .map(
            json ->
                new Reply(
                    201,
                    json.put("retryOf", of),
                    Map.of("Location", "/api/v1/rollouts/" + ids.get(0))));
  }

  private Future<Reply> retryOne(ApiRequest request) {
    String of = request.path("id");
    String id = RolloutStarts.newId();
    Principal caller = request.principal();
    // the target's bundles are checked (and requested) as a creation's are, outside the retry's
    // transaction; what
    // the caller may not see or retry is refused by the transaction below, audited there
    Future<Void> ready =
        context
            .tx()
            .read(conn -> store.load(conn, of))
            .map(
                found ->
                    found
                        .filter(l -> caller.mayAccessTeam(l.team()))
                        .map(RolloutStore.Loaded::rollout)
                        .filter(
                            old ->
                                !old.phase().active()
                                    && !old.phase().completed()
                                    && AnalysisChecks.inlineQueriesOfATeam(
                                            old.strategy(), caller.teamScoped())
                                        == null))
            .compose(
                old ->
                    old.isEmpty()
                        ? Future.<Void>succeededFuture()
                        : bundlesReady(
                            request, RolloutStarts.retried(old.get()), id, "rollout.retry"));
    return ready
        .compose(
            checked ->
                context
                    .tx()
                    .audited(
                        request.audit("rollout.retry", "rollouts/" + id),
                        conn ->
                            store
                                .load(conn, of)
                                .compose(
                                    found -> {
                                      Rollout old =
                                          RolloutCommands.visible(found, of, caller).rollout();
                                      ApiException inline =
                                          AnalysisChecks.inlineQueriesOfATeam(
                                              old.strategy(), caller.teamScoped());
                                      if (inline != null) {
                                        throw inline; // a team's retry measures as a team's rollout
                                        // does: through templates only
                                      }
                                      if (old.phase().active() || old.phase().completed()) {
                                        throw ApiException.conflict(
                                            "rollout "
                                                + of
                                                + " is "
                                                + old.phase()
                                                + "; only a RolledBack, Failed or "
                                                + "Aborted rollout is retried");
                                      }
                                      return starts.retry(conn, old, caller, id);
                                    }),
                        s ->
                            new JsonObject()
                                .put("retryOf", of)
                                .put("subscription", s.rollout().subscription())
                                .put("targetVersion", s.rollout().targetVersion())))
        .onSuccess(s -> metrics.created())
        .compose(s -> context.tx().read(conn -> queries.get(conn, id, caller)))
        .map(
            json ->
                new Reply(
                    201, json.put("retryOf", of), Map.of("Location", "/api/v1/rollouts/" + id)));
  }

  /**
   * The analysis queries as the configured Prometheus parses them; a refusal is answered (and
   * audited) as a 422.
   */
  private Future<Void> queriesParse(ApiRequest request, RolloutPlanLoader.Request body, String id) {
    ApiException refused =
        AnalysisChecks.inlineQueriesOfATeam(body.strategy(), request.principal().teamScoped());
    Future<Void> checked =
        refused != null ? Future.failedFuture(refused) : checks.validate(body.strategy());
    return checked.recover(
        e ->
            context
                .tx()
                .<Void>audited(
                    request.audit("rollout.create", "rollouts/" + id),
                    conn -> Future.failedFuture(e),
                    null));
  }

  /**
   * Before a rollout is created, the target's bundle images must be unpacked: those that are not
   * are requested and the creation is refused (audited like any refusal). Runs outside the
   * creation's transaction, so the request commits.
   */
  private Future<Void> bundlesReady(
      ApiRequest request, RolloutPlanLoader.Request body, String id, String action) {
    return context
        .tx()
        .read(
            conn ->
                planning
                    .plan(conn, body, request.principal())
                    .compose(plan -> bundles.notUnpacked(conn, plan, body.targetVersion())))
        // the plan's own refusals (404, 422) are answered by the creation itself, and audited there
        .recover(e -> Future.succeededFuture(List.of()))
        .compose(
            missing ->
                missing.isEmpty()
                    ? Future.<Void>succeededFuture()
                    : bundles
                        .request(context.pool(), missing)
                        .compose(
                            v ->
                                context
                                    .tx()
                                    .<Void>audited(
                                        request.audit(action, "rollouts/" + id),
                                        conn ->
                                            Future.failedFuture(
                                                RolloutBundles.refusal(
                                                    missing, OffsetDateTime.now())),
                                        null)));
  }
}
