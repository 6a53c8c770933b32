package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /rollouts/preview}: what a rollout would do (its waves, the calendar, the bundles not
 * unpacked, each cluster's preflight verdict, the maturity diff and the impact report) without
 * creating it; at most {@link #MAX_PREVIEWS_IN_FLIGHT} at once on a replica.
 */
final class RolloutPreviewRoutes {
  /** Previews computed at once on a replica; more are answered 429 with {@code Retry-After}. */
  static final int MAX_PREVIEWS_IN_FLIGHT = 4;

  private final ApiContext context;
  private final Clock clock;
  private final RolloutPlanLoader planning;
  private final CalendarLoader calendars;
  private final RolloutBundles bundles;
  private final PreflightPreview preflights;
  private final MaturityDiffs diffs;
  private final ImpactPreview impact;
  private final TargetBundles targetBundles;
  // previews answered at once on this replica: each holds a plan, its verdicts and a report of up
  // to 10,000 clusters
  private final InFlight previews = new InFlight(MAX_PREVIEWS_IN_FLIGHT);

  RolloutPreviewRoutes(
      ApiContext context,
      Clock clock,
      RolloutPlanLoader planning,
      CalendarLoader calendars,
      RolloutBundles bundles,
      PreflightPreview preflights,
      MaturityDiffs diffs,
      ImpactPreview impact,
      TargetBundles targetBundles) {
    this.context = context;
    this.clock = clock;
    this.planning = planning;
    this.calendars = calendars;
    this.bundles = bundles;
    this.preflights = preflights;
    this.diffs = diffs;
    this.impact = impact;
    this.targetBundles = targetBundles;
  }

  Future<Reply> preview(ApiRequest request) {
    List<RolloutTargets.Target> targets =
        RolloutTargets.listed(request.body()) ? RolloutTargets.parse(request.body()) : null;
    List<RolloutPlanLoader.Request> bodies = new ArrayList<>();
    if (targets == null) {
      bodies.add(RolloutPlanLoader.Request.parse(request.body()));
    } else {
      targets.forEach(t -> bodies.add(parseUnder(RolloutTargets.single(request.body(), t), t)));
    }
    if (!previews.tryEnter()) {
      throw new ApiException(
              429,
              "too-many-requests",
              "Too Many Requests",
              MAX_PREVIEWS_IN_FLIGHT
                  + " previews are being computed on this replica (each may list 10,000 clusters); retry in a moment",
              null)
          .withHeader("Retry-After", "2");
    }
    Future<Reply> answer;
    try {
      answer =
          (targets == null
                  ? previewAdmitted(request, bodies.get(0))
                  : previewTargets(request, targets))
              .map(Reply::ok);
    } catch (RuntimeException e) {
      previews.leave();
      throw e;
    }
    return answer.onComplete(ar -> previews.leave());
  }

  /** One target's request, a refusal naming its fields under {@code /targets/<i>}. */
  private static RolloutPlanLoader.Request parseUnder(JsonObject one, RolloutTargets.Target t) {
    try {
      return RolloutPlanLoader.Request.parse(one);
    } catch (ApiException e) {
      throw e.fieldsUnder("/targets/" + t.index());
    }
  }

  /**
   * The preview of each listed target, checked and put in dependency order as a creation's are (422
   * naming {@code /targets/<i>/...}), one after the other: {@code targets} lists them in the order
   * each cluster takes them.
   */
  private Future<JsonObject> previewTargets(
      ApiRequest request, List<RolloutTargets.Target> targets) {
    return context
        .tx()
        .read(conn -> targetBundles.ordered(conn, targets, request.principal()))
        .compose(
            ordered -> {
              Future<JsonArray> out = Future.succeededFuture(new JsonArray());
              for (RolloutTargets.Target t : ordered) {
                RolloutPlanLoader.Request one =
                    parseUnder(RolloutTargets.single(request.body(), t), t);
                out =
                    out.compose(
                        list ->
                            previewAdmitted(request, one)
                                .recover(
                                    e ->
                                        Future.failedFuture(
                                            e instanceof ApiException a
                                                ? a.fieldsUnder("/targets/" + t.index())
                                                : e))
                                .map(
                                    json ->
                                        list.add(
                                            json.put("subscription", t.subscription())
                                                .put("listedAt", t.index()))));
              }
              return out.map(
                  list ->
                      new JsonObject()
                          .put("targets", list)
                          .put("strategy", list.getJsonObject(0).getValue("strategy")));
            });
  }

  private Future<JsonObject> previewAdmitted(ApiRequest request, RolloutPlanLoader.Request body) {
    Instant now = clock.instant();
    boolean grouped = body.strategy().groupBy() != null;
    // read in one transaction (plan, calendar, unpack states); then the preflight verdicts, which
    // ask the agents
    record Parts(RolloutPlanLoader.Plan plan, CalendarGate gate, JsonArray notUnpacked) {}
    return context
        .tx()
        .read(
            conn ->
                planning
                    .plan(conn, body, request.principal())
                    .compose(
                        plan ->
                            (!body.strategy().respectsCalendar()
                                    ? Future.<CalendarGate>succeededFuture(null)
                                    : calendars
                                        .calendar(conn)
                                        .map(
                                            calendar ->
                                                CalendarGate.of(calendar, plan.labels(), now)))
                                .compose(
                                    gate ->
                                        bundles
                                            .notUnpacked(conn, plan, body.targetVersion())
                                            .map(
                                                missing -> {
                                                  JsonArray notUnpacked = new JsonArray();
                                                  missing.forEach(m -> notUnpacked.add(m.toJson()));
                                                  return new Parts(plan, gate, notUnpacked);
                                                }))))
        .compose(
            parts ->
                preflights
                    .verdicts(context.pool(), parts.plan(), body, request.principal())
                    .compose(
                        view -> {
                          Future<JsonArray> diff =
                              diffs.fromRunning(context.pool(), parts.plan(), body.targetVersion());
                          Future<JsonObject> report =
                              impact.report(
                                  context.pool(),
                                  parts.plan(),
                                  body.targetVersion(),
                                  parts.gate(),
                                  view,
                                  now);
                          // the plan's JSON lists every cluster with its verdict: built on a
                          // worker, not the event loop
                          return Future.all(diff, report)
                              .compose(
                                  all ->
                                      context
                                          .vertx()
                                          .executeBlocking(
                                              () ->
                                                  parts
                                                      .plan()
                                                      .toJson(parts.gate(), grouped, view, now)
                                                      .put(
                                                          "bundlesNotUnpacked", parts.notUnpacked())
                                                      .put("maturityDiff", diff.result())
                                                      .put("impact", report.result())
                                                      .put("targetVersion", body.targetVersion())
                                                      .put("strategy", body.strategy().toJson()),
                                              false));
                        }));
  }
}
