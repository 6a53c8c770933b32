package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.impact.ImpactLimits;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutQueries.AgentReport;
import io.olmstead.controlplane.rollout.RolloutQueries.ClusterFacts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Row;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /rollouts} (create, preview, read, operator commands) and {@code /events} (Server-Sent
 * Events). A rollout belongs to the team of its subscription when it was created; team-scoped
 * callers see and command only their teams' rollouts and get only their teams' events.
 */
public final class RolloutsModule implements ApiModule {
  /** Previews computed at once on a replica; more are answered 429 with {@code Retry-After}. */
  static final int MAX_PREVIEWS_IN_FLIGHT = 4;

  private final RolloutEvents events;
  private final Clock clock;
  private final RolloutStore store = new RolloutStore();
  private final RolloutQueries queries = new RolloutQueries();
  private final RolloutCommands commands = new RolloutCommands(store);
  private final RolloutPlanLoader planning = new RolloutPlanLoader();
  private final RolloutStarts starts;
  private final CalendarLoader calendars = new CalendarLoader();
  private final RolloutBundles bundles = new RolloutBundles();
  private final PreflightPreview preflights;
  private final MaturityDiffs diffs;
  private final RolloutMetrics metrics;
  private final AnalysisChecks checks;
  // previews answered at once on this replica: each holds a plan, its verdicts and a report of up
  // to 10,000 clusters
  private final InFlight previews = new InFlight(MAX_PREVIEWS_IN_FLIGHT);
  private ApiContext context;
  private ImpactPreview impact;
  private TargetBundles targetBundles;

  RolloutsModule(
      RolloutEvents events,
      RolloutMetrics metrics,
      RolloutMaturity maturity,
      Clock clock,
      AnalysisChecks checks,
      RolloutStarts starts) {
    this.clock = clock;
    this.events = events;
    this.checks = checks;
    this.starts = starts;
    this.metrics = metrics;
    this.preflights = new PreflightPreview(maturity);
    this.diffs = new MaturityDiffs(maturity);
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    this.targetBundles = new TargetBundles(ctx.vertx(), ctx.config().maxBodyBytes());
    this.impact =
        new ImpactPreview(
            ctx.vertx(),
            ctx.config().maxBodyBytes(),
            ctx.config().edgeRisk(),
            ImpactLimits.DEFAULT);
    ApiModule.bind(builder, "createRollout", this::create);
    ApiModule.bind(builder, "previewRollout", this::preview);
    ApiModule.bind(builder, "listRollouts", this::list);
    ApiModule.bind(builder, "getRollout", this::get);
    ApiModule.bind(builder, "listRolloutClusters", this::clusters);
    ApiModule.bind(builder, "retryRollout", this::retry);
    for (String command : new String[] {"pause", "resume", "abort", "rollback", "promote"}) {
      ApiModule.bind(builder, command + "Rollout", r -> command(r, command));
    }
    ApiModule.route(builder, "streamEvents")
        .addHandler(
            rc -> {
              try {
                events.follow(rc.response(), ApiRequest.of(rc).principal());
              } catch (ApiException e) {
                rc.fail(e);
              }
            });
  }

  private Future<Reply> create(ApiRequest request) {
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
  private Future<Reply> retry(ApiRequest request) {
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

  private Future<Reply> preview(ApiRequest request) {
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

  private Future<Reply> list(ApiRequest request) {
    String subscription = request.query("subscription").orElse(null);
    String state = request.query("state").orElse(null);
    JsonArray cursor = request.cursor().map(c -> Cursors.decode(c, 2)).orElse(null);
    String afterId = cursor == null ? null : cursor.getString(1);
    OffsetDateTime afterStarted = cursor == null ? null : OffsetDateTime.parse(cursor.getString(0));
    int limit = request.limit();
    Principal caller = request.principal();
    return context
        .tx()
        .read(
            conn ->
                queries
                    .list(
                        conn,
                        subscription,
                        state,
                        afterId,
                        afterStarted,
                        limit + 1,
                        caller.teamFilter())
                    .compose(
                        rows -> {
                          Future<JsonArray> items = Future.succeededFuture(new JsonArray());
                          for (Row row : rows.subList(0, Math.min(limit, rows.size()))) {
                            String id = row.getString("id");
                            // the same shape as GET /rollouts/{id}: fromVersions, startedAt,
                            // updatedAt and history included
                            items =
                                items.compose(
                                    arr ->
                                        queries
                                            .get(conn, id, caller)
                                            .map(
                                                json -> {
                                                  if (json != null) {
                                                    arr.add(json);
                                                  }
                                                  return arr;
                                                }));
                          }
                          return items.map(
                              arr -> {
                                JsonObject page = new JsonObject().put("items", arr);
                                if (rows.size() > limit) {
                                  Row last = rows.get(limit - 1);
                                  page.put(
                                      "nextCursor",
                                      Cursors.encode(
                                          new JsonArray()
                                              .add(last.getOffsetDateTime("started_at").toString())
                                              .add(last.getString("id"))));
                                }
                                return Reply.ok(page);
                              });
                        }));
  }

  private Future<Reply> get(ApiRequest request) {
    String id = request.path("id");
    return context
        .tx()
        .read(conn -> queries.get(conn, id, request.principal()))
        .map(
            json -> {
              if (json == null) {
                throw ApiException.notFound("rollout " + id + " does not exist");
              }
              return withEtag(json);
            });
  }

  private Future<Reply> clusters(ApiRequest request) {
    String id = request.path("id");
    String step = request.query("state").orElse(null);
    JsonArray cursor = request.cursor().map(c -> Cursors.decode(c, 2)).orElse(null);
    Integer afterWave = cursor == null ? null : cursor.getInteger(0);
    String afterName = cursor == null ? null : cursor.getString(1);
    if (cursor != null && (afterWave == null || afterName == null)) {
      throw ApiException.badRequest("the cursor is not one this server issued", "query.cursor");
    }
    int limit = request.limit();
    Principal caller = request.principal();
    Instant now = clock.instant();
    return context
        .tx()
        .read(
            conn ->
                store
                    .load(conn, id)
                    .compose(
                        found -> {
                          Rollout r = RolloutCommands.visible(found, id, caller).rollout();
                          List<Member> page =
                              RolloutQueries.members(r, step, afterWave, afterName, limit);
                          List<String> names = page.stream().map(Member::cluster).toList();
                          Future<Map<String, AgentReport>> reports =
                              RolloutQueries.agentReports(conn, r.subscription(), names);
                          Future<Map<String, ClusterFacts>> facts =
                              RolloutQueries.clusterFacts(conn, names);
                          Future<MaintenanceCalendar> calendar =
                              r.strategy().respectsCalendar()
                                  ? calendars.calendar(conn)
                                  : Future.succeededFuture(null);
                          Future<TargetGroup> group = store.group(conn, id);
                          return Future.all(reports, facts, calendar, group)
                              .map(
                                  v ->
                                      Cursors.page(
                                          page,
                                          limit,
                                          m -> {
                                            AgentReport report = reports.result().get(m.cluster());
                                            ClusterFacts cluster = facts.result().get(m.cluster());
                                            ClusterReason reason =
                                                ClusterReason.ofMember(
                                                    m,
                                                    r.targetVersion(),
                                                    report == null ? null : report.facts(),
                                                    cluster == null ? null : cluster.connection(),
                                                    calendar.result(),
                                                    cluster == null ? Map.of() : cluster.labels(),
                                                    now);
                                            JsonObject json =
                                                RolloutQueries.cluster(r, m, report, reason);
                                            return group.result().rows().isEmpty()
                                                ? json
                                                : json.put(
                                                    "targets",
                                                    RolloutQueries.targetsOf(
                                                        group.result(), m.cluster()));
                                          },
                                          m -> new JsonArray().add(m.wave()).add(m.cluster())));
                        }))
        .map(Reply::ok);
  }

  private Future<Reply> command(ApiRequest request, String command) {
    String id = request.path("id");
    Principal caller = request.principal();
    // the wave a promote ends: a retried promote whose wave has ended meanwhile is refused instead
    // of ending the next
    String wave = "promote".equals(command) ? request.query("wave").orElse(null) : null;
    // a promote may name the rollout as it was read (its ETag): nothing moves when the rollout has
    // moved since
    Optional<String> ifMatch = "promote".equals(command) ? request.ifMatch() : Optional.empty();
    return context
        .tx()
        .audited(
            request.audit("rollout." + command, "rollouts/" + id),
            conn -> commands.apply(conn, id, command, wave, ifMatch, caller),
            applied ->
                new JsonObject()
                    .put("state", applied.get(0).result().rollout().phase().name())
                    .put(
                        "rollouts",
                        new JsonArray(
                            applied.stream().map(a -> a.result().rollout().id()).toList())))
        .onSuccess(
            applied ->
                applied.forEach(
                    a -> {
                      metrics.command(command, a.result().transitions());
                      RolloutTransitions.log(a.before(), a.result());
                    }))
        .compose(r -> context.tx().read(conn -> queries.get(conn, id, caller)))
        .map(RolloutsModule::withEtag);
  }

  private static Reply withEtag(JsonObject rollout) {
    return Reply.ok(rollout).withEtag(rollout.getLong("resourceVersion"));
  }
}
