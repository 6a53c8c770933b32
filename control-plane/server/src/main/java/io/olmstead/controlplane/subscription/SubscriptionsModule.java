package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Cursors;
import io.olmstead.controlplane.http.ETags;
import io.olmstead.controlplane.http.Reply;
import io.olmstead.controlplane.maturity.MaturityPolicy;
import io.olmstead.controlplane.maturity.MaturityService;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code /subscriptions}: create/replace (validated against the catalog's current revision), read,
 * delete, the clusters a placement selects and the per-cluster status. Team-scoped callers see and
 * change only their teams'.
 */
public final class SubscriptionsModule implements ApiModule {
  private final SubscriptionStore store = new SubscriptionStore();
  private final PlacementQueries placements = new PlacementQueries();
  private final StatusQueries status = new StatusQueries();
  private final SubscriptionConflicts conflicts = new SubscriptionConflicts();
  private final OperatorGroupConflicts operatorGroups = new OperatorGroupConflicts();
  private final DeclaredRollouts rollouts;
  private ApiContext context;
  private MaturityGate maturity;
  private PolicyStatus policy;

  /**
   * {@code rollouts}: what starts the rollout of a declared version change under a {@code
   * rolloutStrategy}.
   */
  public SubscriptionsModule(DeclaredRollouts rollouts) {
    this.rollouts = rollouts;
  }

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    var reports = new MaturityService(ctx.vertx(), ctx.tx(), ctx.config().maxBodyBytes());
    this.maturity = new MaturityGate(reports);
    this.policy = new PolicyStatus(new HoldReports(reports));
    ApiModule.bind(builder, "listSubscriptions", this::list);
    ApiModule.bind(builder, "getSubscription", this::get);
    ApiModule.bind(builder, "putSubscription", this::put);
    ApiModule.bind(builder, "deleteSubscription", this::delete);
    ApiModule.bind(builder, "getSubscriptionPlacement", this::placement);
    ApiModule.bind(builder, "getSubscriptionStatus", this::status);
  }

  private Future<Reply> list(ApiRequest request) {
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    Principal caller = request.principal();
    int limit = request.limit();
    return context
        .tx()
        .read(
            conn -> store.list(conn, after, caller.teamScoped() ? caller.teams() : null, limit + 1))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows,
                        limit,
                        SubscriptionJson::toJson,
                        s -> new JsonArray().add(s.name()))));
  }

  private Future<Reply> get(ApiRequest request) {
    String name = request.path("name");
    return visible(request, name)
        .map(s -> Reply.ok(SubscriptionJson.toJson(s)).withEtag(s.resourceVersion()));
  }

  private Future<Reply> put(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    SubscriptionSpec spec = SubscriptionJson.spec(name, request.body());
    if (caller.teamScoped() && (spec.team() == null || !caller.teams().contains(spec.team()))) {
      throw ApiException.forbidden("a team-scoped token must set team to one of " + caller.teams());
    }
    JsonArray syntax = SubscriptionValidation.syntax(spec);
    syntax.addAll(MaturityPolicy.unknownRules(spec.requirements()));
    if (!syntax.isEmpty()) {
      throw ApiException.validationFailed("the subscription is invalid", syntax);
    }
    // checked before the transaction: Prometheus is not asked while the subscription's row is
    // locked
    Future<Void> checked =
        spec.rolloutStrategy() == null
            ? Future.succeededFuture()
            : rollouts.check(spec.rolloutStrategy(), spec.team(), caller);
    // what a refused rollout start leaves for after the rollback (the bundle images it asks to
    // unpack)
    List<Supplier<Future<Void>>> afterRollback = new ArrayList<>();
    return checked
        .compose(
            ok ->
                context
                    .tx()
                    .audited(
                        request.audit("subscription.put", "subscriptions/" + name),
                        conn ->
                            CatalogViews.forPackage(conn, spec.catalog(), spec.packageName())
                                .compose(
                                    view -> {
                                      JsonArray errors =
                                          SubscriptionValidation.againstCatalog(spec, view);
                                      if (!errors.isEmpty()) {
                                        throw ApiException.validationFailed(
                                            "the subscription does not match catalog "
                                                + spec.catalog(),
                                            errors);
                                      }
                                      return conflicts
                                          .check(conn, spec, caller)
                                          .compose(v -> operatorGroups.check(conn, spec, caller))
                                          .compose(v -> maturity.check(spec, view.orElseThrow()))
                                          .compose(v -> store.lock(conn, name))
                                          .compose(
                                              existing ->
                                                  write(
                                                      conn,
                                                      request,
                                                      spec,
                                                      existing,
                                                      target(spec, view.orElseThrow()),
                                                      afterRollback::add));
                                    })
                                .compose(
                                    written ->
                                        store
                                            .get(conn, name)
                                            .map(s -> new Put(written, s.orElseThrow()))),
                        put ->
                            new JsonObject()
                                .put("catalog", spec.catalog())
                                .put("package", spec.packageName())
                                .put("version", spec.version().toJson())
                                .put("resourceVersion", put.subscription.resourceVersion())
                                .put("rollout", put.written.rollout())
                                .put("tokenId", caller.tokenId().toString())))
        .recover(e -> runAll(afterRollback).transform(done -> Future.<Put>failedFuture(e)))
        .map(
            put -> {
              JsonObject json = SubscriptionJson.toJson(put.subscription);
              if (put.written.rollout() != null) {
                json.put("rollout", put.written.rollout());
              }
              return (put.written.created() ? Reply.created(json) : Reply.ok(json))
                  .withEtag(put.subscription.resourceVersion());
            });
  }

  /**
   * Runs what refusals left for after their rollback, one after the other; its own failures are not
   * the answer.
   */
  private static Future<Void> runAll(List<Supplier<Future<Void>>> work) {
    Future<Void> chain = Future.succeededFuture();
    for (Supplier<Future<Void>> w : work) {
      chain = chain.transform(ar -> w.get());
    }
    return chain;
  }

  /**
   * What a PUT wrote: a new subscription, and the rollout its declared version change started
   * (null: none).
   */
  private record Written(boolean created, String rollout) {
    static final Written CREATED = new Written(true, null);
    static final Written REPLACED = new Written(false, null);
  }

  /**
   * Inserts or replaces the subscription; a new declared version applies at once, or, with a {@code
   * rolloutStrategy}, starts a rollout to {@code target} while what agents ran stays applied.
   */
  private Future<Written> write(
      SqlConnection conn,
      ApiRequest request,
      SubscriptionSpec spec,
      Optional<Subscription> existing,
      String target,
      Consumer<Supplier<Future<Void>>> afterRollback) {
    Principal caller = request.principal();
    String name = spec.name();
    Optional<String> ifMatch = request.ifMatch();
    if (existing.isEmpty()) {
      ETags.checkMissing(ifMatch, "subscription " + name);
      return store.insert(conn, spec, caller.actor()).map(Written.CREATED);
    }
    Subscription before = existing.get();
    if (!caller.mayAccessTeam(before.spec().team())) {
      throw ApiException.forbidden("subscription " + name + " belongs to another team");
    }
    ETags.check(ifMatch, before.resourceVersion());
    boolean newVersion = !spec.version().equals(before.spec().version());
    boolean newTeam = !Objects.equals(spec.team(), before.spec().team());
    if (!newVersion && !newTeam) {
      return store.update(conn, spec, !spec.equals(before.spec())).map(Written.REPLACED);
    }
    // a new version policy while a rollout moves the fleet would fight it; once none runs, it
    // replaces
    // the versions rollouts approved. A rollout belongs to the team it was started for, so the team
    // waits too.
    return store
        .activeRollout(conn, name)
        .compose(
            active -> {
              if (active.isPresent()) {
                throw ApiException.conflict(
                    "rollout "
                        + active.get()
                        + " is moving subscription "
                        + name
                        + "; abort it or wait for it to end before changing the "
                        + (newVersion ? "version" : "team"));
              }
              Future<Void> updated = store.update(conn, spec, true);
              if (!newVersion) {
                return updated.map(Written.REPLACED);
              }
              if (spec.rolloutStrategy() == null || target == null) {
                return updated.compose(v -> appliesAtOnce(conn, name)).map(Written.REPLACED);
              }
              // agents keep what they ran until the rollout's waves approve the declared version
              return updated
                  .compose(v -> store.setApplied(conn, name, before.effectiveVersion()))
                  .compose(v -> store.get(conn, name))
                  .compose(
                      stored ->
                          rollouts.start(conn, stored.orElseThrow(), target, caller, afterRollback))
                  .compose(
                      started ->
                          started.isPresent()
                              ? Future.succeededFuture(new Written(false, started.get()))
                              : appliesAtOnce(conn, name).map(Written.REPLACED));
            });
  }

  /** The declared version rules every cluster now: no applied policy, no rollout approvals. */
  private Future<Void> appliesAtOnce(SqlConnection conn, String name) {
    return store.clearRolloutApprovals(conn, name).compose(v -> store.setApplied(conn, name, null));
  }

  /**
   * The version a declared policy resolves to in its channel (null: none; validation refused that
   * already).
   */
  private static String target(SubscriptionSpec spec, CatalogView view) {
    return view.pkg(spec.packageName())
        .flatMap(p -> p.channel(spec.channel()))
        .map(channel -> DesiredState.ceiling(spec.version(), channel).maxVersion())
        .orElse(null);
  }

  private record Put(Written written, Subscription subscription) {}

  private Future<Reply> delete(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    return context
        .tx()
        .audited(
            request.audit("subscription.delete", "subscriptions/" + name),
            conn ->
                store
                    .lock(conn, name)
                    .compose(
                        existing -> {
                          caller.visible(existing, s -> s.spec().team(), notFound(name));
                          ETags.check(request.ifMatch(), existing.get().resourceVersion());
                          return store
                              .activeRollout(conn, name)
                              .compose(
                                  active -> {
                                    if (active.isPresent()) {
                                      throw ApiException.conflict(
                                          "rollout "
                                              + active.get()
                                              + " is moving subscription "
                                              + name
                                              + "; abort it before deleting the subscription");
                                    }
                                    return store.delete(conn, name);
                                  });
                        }),
            null)
        .map(v -> Reply.noContent());
  }

  private Future<Reply> placement(ApiRequest request) {
    String name = request.path("name");
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    int limit = request.limit();
    return visible(request, name)
        .compose(s -> context.tx().read(conn -> placements.page(conn, s.spec(), after, limit + 1)))
        .map(
            rows ->
                Reply.ok(
                    Cursors.page(
                        rows, limit, c -> c, c -> new JsonArray().add(c.getString("name")))));
  }

  private Future<Reply> status(ApiRequest request) {
    String name = request.path("name");
    String after = request.cursor().map(c -> Cursors.decode(c, 1).getString(0)).orElse(null);
    int limit = request.limit();
    return visible(request, name)
        .compose(
            s ->
                context
                    .tx()
                    .read(
                        conn -> {
                          Future<Long> clusters = placements.count(conn, s.spec());
                          Future<JsonObject> byVersion =
                              clusters.compose(v -> status.byVersion(conn, s.spec()));
                          Future<JsonObject> byPhase =
                              byVersion.compose(v -> status.byPhase(conn, s.spec()));
                          Future<Optional<JsonObject>> signals =
                              byPhase.compose(v -> StoredSignals.read(conn, name));
                          Future<JsonObject> held = signals.compose(v -> policy.of(conn, s));
                          return held.compose(v -> status.items(conn, s.spec(), after, limit + 1))
                              .map(
                                  items -> {
                                    JsonObject page =
                                        Cursors.page(
                                            items,
                                            limit,
                                            StatusQueries.Item::toJson,
                                            i -> new JsonArray().add(i.cluster()));
                                    return Reply.ok(
                                        new JsonObject()
                                            .put("clusters", clusters.result())
                                            .put("byVersion", byVersion.result())
                                            .put("byPhase", byPhase.result())
                                            .put("signals", signals.result().orElse(null))
                                            .mergeIn(held.result())
                                            .put("items", page.getJsonArray("items"))
                                            .put("nextCursor", page.getString("nextCursor")));
                                  });
                        }));
  }

  private Future<Subscription> visible(ApiRequest request, String name) {
    Principal caller = request.principal();
    return context
        .tx()
        .read(conn -> store.get(conn, name))
        .map(found -> caller.visible(found, s -> s.spec().team(), notFound(name)));
  }

  private static String notFound(String name) {
    return "subscription " + name + " does not exist";
  }
}
