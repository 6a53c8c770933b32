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
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /rollouts} (create and retry: {@link RolloutStartRoutes}; preview: {@link
 * RolloutPreviewRoutes}; read, operator commands) and {@code /events} (Server-Sent Events). A
 * rollout belongs to the team of its subscription when it was created; team-scoped callers see and
 * command only their teams' rollouts and get only their teams' events.
 */
public final class RolloutsModule implements ApiModule {
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
  private ApiContext context;

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
    TargetBundles targetBundles = new TargetBundles(ctx.vertx(), ctx.config().maxBodyBytes());
    ImpactPreview impact =
        new ImpactPreview(
            ctx.vertx(),
            ctx.config().maxBodyBytes(),
            ctx.config().edgeRisk(),
            ImpactLimits.DEFAULT);
    RolloutStartRoutes startRoutes =
        new RolloutStartRoutes(
            ctx, store, queries, planning, starts, bundles, metrics, checks, targetBundles);
    RolloutPreviewRoutes previewRoutes =
        new RolloutPreviewRoutes(
            ctx, clock, planning, calendars, bundles, preflights, diffs, impact, targetBundles);
    ApiModule.bind(builder, "createRollout", startRoutes::create);
    ApiModule.bind(builder, "previewRollout", previewRoutes::preview);
    ApiModule.bind(builder, "listRollouts", this::list);
    ApiModule.bind(builder, "getRollout", this::get);
    ApiModule.bind(builder, "listRolloutClusters", this::clusters);
    ApiModule.bind(builder, "retryRollout", startRoutes::retry);
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
