package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.subscription.DeclaredRollouts;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Creating a rollout in a transaction, for the three ways one starts: {@code POST /rollouts}, a
 * declared version change of a subscription with a {@code rolloutStrategy}, and {@code POST
 * /rollouts/{id}/retry}. A rollout of a pinned subscription declares its target: the pin moves when
 * the rollout starts (what agents ran stays applied until it succeeds), so the declared spec is
 * never rewritten behind the user's back afterwards.
 */
final class RolloutStarts implements DeclaredRollouts {
  private static final String LINK =
      "UPDATE rollouts SET group_id = $2, group_index = $3 WHERE id = $1";
  private final RolloutPlanLoader planning = new RolloutPlanLoader();
  private final RolloutStore store = new RolloutStore();
  private final RolloutBundles bundles = new RolloutBundles();
  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final AnalysisChecks checks;
  private final RolloutMetrics metrics;
  private final Pool pool;

  RolloutStarts(AnalysisChecks checks, RolloutMetrics metrics, Pool pool) {
    this.checks = checks;
    this.metrics = metrics;
    this.pool = pool;
  }

  /** A new rollout id. */
  static String newId() {
    return "ro-" + UUID.randomUUID().toString().substring(0, 13);
  }

  /**
   * What a creation did: the rollout, and whether it moved the subscription's declared pin to its
   * target.
   */
  record Started(Rollout rollout, boolean declared) {}

  /** Plans and inserts rollout {@code id} as {@code body} asks, in {@code conn}'s transaction. */
  Future<Started> insert(
      SqlConnection conn, RolloutPlanLoader.Request body, Principal caller, String id) {
    return insert(conn, body, caller, id, Fields.ROLLOUT);
  }

  /**
   * Inserts one rollout per target of {@code ordered} (providers first) with the ids {@code ids},
   * linked as one group named by the first id when there are several; a target's refusal names its
   * fields under {@code /targets/<i>}.
   */
  Future<List<Started>> insertGroup(
      SqlConnection conn,
      List<RolloutTargets.Target> ordered,
      JsonObject body,
      Principal caller,
      List<String> ids) {
    Future<List<Started>> out = Future.succeededFuture(new ArrayList<>());
    for (int k = 0; k < ordered.size(); k++) {
      RolloutTargets.Target t = ordered.get(k);
      RolloutPlanLoader.Request request =
          RolloutPlanLoader.Request.parse(RolloutTargets.single(body, t));
      Tuple link = Tuple.of(ids.get(k), ids.get(0), k);
      out =
          out.compose(
              list ->
                  insert(conn, request, caller, link.getString(0))
                      .recover(
                          e ->
                              Future.failedFuture(
                                  e instanceof ApiException a
                                      ? a.fieldsUnder("/targets/" + t.index())
                                      : e))
                      .compose(
                          started ->
                              (ordered.size() == 1
                                      ? Future.succeededFuture()
                                      : conn.preparedQuery(LINK).execute(link))
                                  .map(
                                      v -> {
                                        list.add(started);
                                        return list;
                                      })));
    }
    return out;
  }

  /**
   * The fields a refusal names: those of a rollout's body, or of a subscription declaring the
   * change.
   */
  private record Fields(String target, String strategy) {
    static final Fields ROLLOUT = new Fields("targetVersion", "/strategy");
    static final Fields DECLARED = new Fields("/version", "/rolloutStrategy");
  }

  private Future<Started> insert(
      SqlConnection conn,
      RolloutPlanLoader.Request body,
      Principal caller,
      String id,
      Fields fields) {
    return planning
        .planLocked(conn, body, caller)
        .compose(
            plan ->
                checks
                    .resolve(
                        conn, body.strategy(), plan.subscription().spec().team(), fields.strategy())
                    .compose(
                        strategy -> {
                          refuseUnstartable(plan, body, fields.target());
                          if (plan.alreadyAtTarget() && !body.force()) {
                            throw ApiException.conflict(
                                "every cluster subscription "
                                    + body.subscription()
                                    + " places on already "
                                    + "runs "
                                    + body.targetVersion()
                                    + ": nothing to roll out (send \"force\": true to start anyway)");
                          }
                          Rollout rollout =
                              RolloutMachine.initial(
                                  id,
                                  body.subscription(),
                                  body.targetVersion(),
                                  strategy,
                                  plan.waves(),
                                  plan.versions());
                          return store
                              .insert(
                                  conn,
                                  rollout,
                                  plan.subscription().spec().team(),
                                  plan.fromVersions(),
                                  plan.held(),
                                  caller.actor())
                              .compose(
                                  v ->
                                      subscriptions.declarePin(
                                          conn, body.subscription(), body.targetVersion()))
                              .compose(
                                  declared ->
                                      !declared
                                          ? Future.succeededFuture(new Started(rollout, false))
                                          : Audit.record(
                                                  conn,
                                                  new AuditEntry(
                                                      caller.actor(),
                                                      "subscription.declare",
                                                      "subscriptions/" + body.subscription(),
                                                      AuditEntry.SUCCESS,
                                                      new JsonObject()
                                                          .put(
                                                              "version",
                                                              new JsonObject()
                                                                  .put("pin", body.targetVersion()))
                                                          .put("rollout", id)
                                                          .put(
                                                              "tokenId",
                                                              String.valueOf(caller.tokenId())),
                                                      null))
                                              .map(new Started(rollout, true)));
                        }));
  }

  /**
   * Inserts rollout {@code id} repeating {@code old} (same subscription, target and strategy);
   * refused while the subscription declares another pin than the old target (declaring is how to
   * move on).
   */
  Future<Started> retry(SqlConnection conn, Rollout old, Principal caller, String id) {
    return retryable(conn, old, caller).compose(v -> insert(conn, retried(old), caller, id));
  }

  /**
   * Inserts one rollout per target of an ended multi-target rollout ({@code olds}, in dependency
   * order) with the ids {@code ids}, linked as a new group: same subscriptions, versions and
   * strategy, each refused as {@link #retry} refuses one. A target every cluster already runs
   * starts too (forced) and settles at once, still gating its consumers on the clusters where it
   * did not.
   */
  Future<List<Started>> retryGroup(
      SqlConnection conn, List<Rollout> olds, Principal caller, List<String> ids) {
    Future<List<Started>> out = Future.succeededFuture(new ArrayList<>());
    for (int k = 0; k < olds.size(); k++) {
      Rollout old = olds.get(k);
      Tuple link = Tuple.of(ids.get(k), ids.get(0), k);
      RolloutPlanLoader.Request again =
          new RolloutPlanLoader.Request(
              old.subscription(), old.targetVersion(), old.strategy(), true);
      out =
          out.compose(
              list ->
                  retryable(conn, old, caller)
                      .compose(v -> insert(conn, again, caller, link.getString(0), Fields.ROLLOUT))
                      .compose(
                          started ->
                              conn.preparedQuery(LINK)
                                  .execute(link)
                                  .map(
                                      v -> {
                                        list.add(started);
                                        return list;
                                      })));
    }
    return out;
  }

  /**
   * Refuses a retry of {@code old} whose subscription is gone, not the caller's, or declares
   * another pin.
   */
  private Future<Void> retryable(SqlConnection conn, Rollout old, Principal caller) {
    return subscriptions
        .get(conn, old.subscription())
        .map(
            found -> {
              SubscriptionSpec spec =
                  found
                      .orElseThrow(
                          () ->
                              ApiException.conflict(
                                  "subscription " + old.subscription() + " no longer exists"))
                      .spec();
              // read through the team check first: what another team's subscription declares is not
              // the caller's to learn
              caller.visible(
                  found,
                  s -> s.spec().team(),
                  "subscription " + old.subscription() + " does not exist");
              if (spec.version().kind() == VersionPolicy.Kind.PIN
                  && !old.targetVersion().equals(spec.version().value())) {
                throw ApiException.conflict(
                    "subscription "
                        + old.subscription()
                        + " now declares "
                        + spec.version().value()
                        + ", not "
                        + old.targetVersion()
                        + ": declare the version to roll out instead of retrying");
              }
              return (Void) null;
            });
  }

  /** The creation a retry of {@code old} asks for: same subscription, target and strategy. */
  static RolloutPlanLoader.Request retried(Rollout old) {
    return new RolloutPlanLoader.Request(
        old.subscription(), old.targetVersion(), old.strategy(), false);
  }

  private static void refuseUnstartable(
      RolloutPlanLoader.Plan plan, RolloutPlanLoader.Request body, String field) {
    if (!plan.unreachable().isEmpty()) {
      JsonArray errors = new JsonArray();
      plan.unreachable()
          .forEach(
              c ->
                  errors.add(
                      new JsonObject()
                          .put("field", field)
                          .put("message", plan.excluded().get(c) + " (cluster " + c + ")")));
      throw ApiException.validationFailed(
          "version "
              + body.targetVersion()
              + " cannot be reached from "
              + "what "
              + plan.unreachable().size()
              + " clusters run",
          errors);
    }
  }

  @Override
  public Future<Void> check(JsonObject rolloutStrategy, String team, Principal caller) {
    RolloutStrategy strategy;
    try {
      strategy = RolloutStrategy.fromJson(rolloutStrategy);
    } catch (StrategyException e) {
      throw ApiException.validationFailed(
          e.getMessage(),
          new JsonArray()
              .add(
                  new JsonObject()
                      .put("field", e.pointer("/rolloutStrategy"))
                      .put("message", e.getMessage())));
    } catch (IllegalArgumentException e) {
      throw ApiException.validationFailed(
          e.getMessage(),
          new JsonArray()
              .add(
                  new JsonObject()
                      .put("field", "/rolloutStrategy")
                      .put("message", e.getMessage())));
    }
    // stored now, run later under whoever changes the version: a team's inline query is refused
    // when it is declared
    ApiException refused =
        AnalysisChecks.inlineQueriesOfATeam(strategy, caller.teamScoped(), "/rolloutStrategy");
    if (refused != null) {
      throw refused;
    }
    // outside any transaction: a template lookup, and Prometheus (up to its timeout) for the inline
    // queries
    return checks
        .resolve(pool, strategy, team, Fields.DECLARED.strategy())
        .compose(resolved -> checks.validate(strategy, Fields.DECLARED.strategy()));
  }

  @Override
  public Future<Optional<String>> start(
      SqlConnection tx,
      Subscription subscription,
      String targetVersion,
      Principal caller,
      Consumer<Supplier<Future<Void>>> afterRollback) {
    RolloutStrategy strategy = RolloutStrategy.fromJson(subscription.spec().rolloutStrategy());
    ApiException refused =
        AnalysisChecks.inlineQueriesOfATeam(
            strategy, caller.teamScoped(), Fields.DECLARED.strategy());
    if (refused != null) {
      return Future.failedFuture(refused);
    }
    // the inline queries were parsed by Prometheus before the transaction (check): none is asked
    // while it holds locks
    RolloutPlanLoader.Request body =
        new RolloutPlanLoader.Request(subscription.name(), targetVersion, strategy, false);
    String id = newId();
    return planning
        .planLocked(tx, body, caller)
        .compose(
            plan -> {
              refuseUnstartable(plan, body, Fields.DECLARED.target());
              if (plan.waves().isEmpty() || plan.alreadyAtTarget()) {
                return Future.succeededFuture(Optional.<String>empty());
              }
              return bundles
                  .notUnpacked(tx, plan, targetVersion)
                  .compose(
                      missing -> {
                        if (missing.isEmpty()) {
                          return insert(tx, body, caller, id, Fields.DECLARED)
                              .map(
                                  started -> {
                                    metrics.created();
                                    return Optional.of(started.rollout().id());
                                  });
                        }
                        // asked for once the refusal rolled back: no second pooled connection while
                        // this one holds the row lock
                        afterRollback.accept(() -> bundles.request(pool, missing));
                        return Future.failedFuture(
                            RolloutBundles.refusal(
                                missing, OffsetDateTime.now(), Fields.DECLARED.target()));
                      });
            });
  }
}
