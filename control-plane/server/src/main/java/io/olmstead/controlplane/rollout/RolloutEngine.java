package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.analysis.PrometheusClient;
import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.db.DbTime;
import io.olmstead.controlplane.db.LeaderLock;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Steps every active rollout on a timer, on the one replica holding the rollout advisory lock
 * (taken with {@code pg_try_advisory_lock} on a dedicated connection: when that replica dies its
 * session ends, the lock is released, and another replica's next attempt takes it). Each step is
 * written in one transaction with its history and audit entry, only if this replica still holds the
 * current leader epoch ({@link LeaderLock#fence}) and the rollout was not changed meanwhile, so no
 * cluster is approved twice.
 */
public final class RolloutEngine {
  /** The advisory lock key (an arbitrary constant: "olmsroll"). */
  static final long LOCK_KEY = 0x6f6c6d73726f6c6cL;

  static final String ACTOR = "system:rollout-engine";
  static final int JOIN_EVERY_TICKS = 6;
  private static final Logger LOG = LoggerFactory.getLogger(RolloutEngine.class);
  // resolution failures: the solver found no solution (OLM's ResolutionFailed condition,
  // ConstraintsNotSatisfiable);
  // RequirementsNotMet is left out, as installs pass through it while their requirements are being
  // set up
  private static final String FLEET_PHASES =
      "SELECT coalesce(phase, 'other') AS status, count(*) AS n, "
          + "count(*) FILTER (WHERE reason = 'ConstraintsNotSatisfiable' OR EXISTS (SELECT 1 FROM "
          + "jsonb_array_elements(conditions) e WHERE e->>'type' = 'ResolutionFailed' AND e->>'status' = 'True' "
          + "AND e->>'reason' = 'ConstraintsNotSatisfiable')) AS unresolved "
          + "FROM subscription_status WHERE NOT gone GROUP BY 1";

  private final Vertx vertx;
  private final Pool pool;
  private final RolloutStore store = new RolloutStore();
  private final RolloutJoiners joiners;
  private final CalendarLoader calendars = new CalendarLoader();
  private MaintenanceCalendar calendar = new MaintenanceCalendar(List.of(), List.of());
  private final PreflightGate preflight;
  private final AnalysisRunner analysis;
  private final EdgeRiskGate edges;
  private long ticks;
  private final RolloutMetrics metrics;
  private final long tickMillis;
  private final Supplier<Instant> clock;
  private final LeaderLock lock;
  private boolean leader;
  private boolean ticking;
  private boolean failing;
  private long timer = -1;
  private volatile boolean closed;
  private volatile long completedTicks;

  RolloutEngine(
      Vertx vertx,
      Pool pool,
      PgConnectOptions connectOptions,
      RolloutMetrics metrics,
      long tickMillis,
      RolloutMaturity maturity,
      Clock clock,
      PrometheusClient prometheus,
      EdgeRiskSettings edgeRisk) {
    this.vertx = vertx;
    this.edges = new EdgeRiskGate(edgeRisk);
    this.analysis = new AnalysisRunner(prometheus);
    this.preflight = new PreflightGate(maturity);
    this.pool = pool;
    this.lock = new LeaderLock(vertx, connectOptions, LOCK_KEY, "rollout engine", this::leadership);
    this.metrics = metrics;
    this.tickMillis = tickMillis;
    this.joiners = new RolloutJoiners(pool, store, tx -> lock.fence(tx));
    this.clock = () -> DbTime.instant(clock);
  }

  public void start() {
    timer = vertx.setPeriodic(tickMillis, id -> tick());
  }

  /** Whether this replica runs the engine now. */
  public boolean leader() {
    return leader;
  }

  /**
   * Ticks finished so far (the lock asked for and, as leader, every active rollout stepped), failed
   * ones included: a test awaits a few more instead of sleeping for them.
   */
  public long completedTicks() {
    return completedTicks;
  }

  private void tick() {
    if (ticking || closed) {
      return;
    }
    ticking = true;
    lock.ensure()
        .compose(isLeader -> isLeader ? stepAll() : Future.succeededFuture())
        .onComplete(
            ar -> {
              ticking = false;
              completedTicks++; // only this event-loop context writes it
              // one line when failures start and one when they end, not one per tick through a
              // database outage
              if (ar.failed() && !failing) {
                LOG.warn(
                    "rollout engine step failed (logged again when it recovers): {}",
                    ar.cause().toString());
              } else if (ar.succeeded() && failing) {
                LOG.info("rollout engine steps again");
              }
              failing = ar.failed();
            });
  }

  private void leadership(boolean held) {
    leader = held;
    metrics.leader(held);
    if (held) {
      LOG.info("this replica now runs the rollout engine");
    }
  }

  private Future<Void> stepAll() {
    // newcomers need a scan of the fleet: look for them every few seconds, not on every tick
    boolean admit = ticks++ % JOIN_EVERY_TICKS == 0;
    Future<Void> fleet = admit ? refreshFleetMetrics() : Future.succeededFuture();
    return fleet
        .compose(f -> calendars.calendar(pool))
        .compose(
            c -> {
              calendar = c; // read once per tick for every rollout
              return store.active(pool);
            })
        .compose(
            ids -> {
              metrics.retain(ids);
              Future<Void> chain = Future.succeededFuture();
              for (String id : ids) {
                chain =
                    chain.compose(
                        v ->
                            stepOne(id, admit)
                                .recover(
                                    e -> {
                                      LOG.warn("rollout {} not stepped: {}", id, e.toString());
                                      return Future.succeededFuture();
                                    }));
              }
              return chain.onSuccess(v -> metrics.active(ids.size()));
            });
  }

  /** Loads, steps and saves one rollout. */
  Future<Void> stepOne(String id, boolean admit) {
    long started = System.nanoTime();
    return store
        .load(pool, id)
        .compose(
            found -> {
              if (found.isEmpty()) {
                return Future.succeededFuture();
              }
              Rollout before = found.get().rollout();
              Future<Void> joined = admit ? joiners.admit(before) : Future.succeededFuture();
              Instant now = clock.get();
              String team = found.get().team();
              return joined
                  .compose(j -> store.reports(pool, before))
                  .compose(
                      reports ->
                          calendars
                              .gate(pool, before, calendar, now)
                              .compose(
                                  gate ->
                                      preflight
                                          .prepare(pool, before, now)
                                          .compose(
                                              view ->
                                                  analysis
                                                      .prepare(pool, before, now)
                                                      .compose(
                                                          checks ->
                                                              edges
                                                                  .prepare(pool, before, team, now)
                                                                  .compose(
                                                                      holds ->
                                                                          store
                                                                              .group(pool, id)
                                                                              .compose(
                                                                                  group ->
                                                                                      // the step is
                                                                                      // pure but
                                                                                      // not small
                                                                                      // (10,000
                                                                                      // clusters,
                                                                                      // calendars
                                                                                      // with many
                                                                                      // windows):
                                                                                      // never on
                                                                                      // the event
                                                                                      // loop
                                                                                      vertx
                                                                                          .executeBlocking(
                                                                                              () -> {
                                                                                                StepResult
                                                                                                    stepped =
                                                                                                        RolloutMachine
                                                                                                            .step(
                                                                                                                before,
                                                                                                                reports,
                                                                                                                now,
                                                                                                                gate,
                                                                                                                view,
                                                                                                                checks,
                                                                                                                holds,
                                                                                                                group);
                                                                                                return new Stepped(
                                                                                                    stepped,
                                                                                                    ClusterReason
                                                                                                        .counts(
                                                                                                            stepped
                                                                                                                .rollout(),
                                                                                                            reports,
                                                                                                            gate));
                                                                                              },
                                                                                              false)))))
                                          .compose(
                                              stepped -> {
                                                StepResult result = stepped.result();
                                                metrics.observed(result.rollout(), stepped.held());
                                                if (!result.changed()) {
                                                  return Future.succeededFuture();
                                                }
                                                // fenced: a replica deposed without its knowing
                                                // changes no row, and steps down
                                                return pool.withTransaction(
                                                        tx ->
                                                            lock.fence(tx)
                                                                .compose(
                                                                    f ->
                                                                        store
                                                                            .save(
                                                                                tx,
                                                                                before,
                                                                                found
                                                                                    .get()
                                                                                    .version(),
                                                                                result.rollout(),
                                                                                result
                                                                                    .transitions(),
                                                                                ACTOR)
                                                                            .compose(
                                                                                saved ->
                                                                                    !saved
                                                                                        ? Future
                                                                                            .succeededFuture(
                                                                                                false)
                                                                                        : Audit
                                                                                            .record(
                                                                                                tx,
                                                                                                new AuditEntry(
                                                                                                    ACTOR,
                                                                                                    "rollout.step",
                                                                                                    "rollouts/"
                                                                                                        + id,
                                                                                                    AuditEntry
                                                                                                        .SUCCESS,
                                                                                                    new JsonObject()
                                                                                                        .put(
                                                                                                            "state",
                                                                                                            result
                                                                                                                .rollout()
                                                                                                                .phase()
                                                                                                                .name())
                                                                                                        .put(
                                                                                                            "transitions",
                                                                                                            result
                                                                                                                .transitions()
                                                                                                                .size())
                                                                                                        .put(
                                                                                                            "changes",
                                                                                                            RolloutStore
                                                                                                                .summary(
                                                                                                                    result
                                                                                                                        .transitions())),
                                                                                                    null))
                                                                                            .compose(
                                                                                                v ->
                                                                                                    edges
                                                                                                        .record(
                                                                                                            tx,
                                                                                                            result
                                                                                                                .rollout(),
                                                                                                            team,
                                                                                                            result
                                                                                                                .transitions(),
                                                                                                            ACTOR,
                                                                                                            now))
                                                                                            .map(
                                                                                                true))))
                                                    .onSuccess(
                                                        saved -> {
                                                          if (saved) {
                                                            metrics.stepped(
                                                                result.transitions(),
                                                                System.nanoTime() - started);
                                                            RolloutTransitions.log(before, result);
                                                          }
                                                        })
                                                    .mapEmpty();
                                              })));
            });
  }

  /** A step's result and its held clusters by reason code (for the metrics). */
  private record Stepped(StepResult result, Map<String, Long> held) {}

  private Future<Void> refreshFleetMetrics() {
    return pool.query("SELECT status, count(*) AS n FROM clusters GROUP BY status")
        .execute()
        .compose(
            clusters ->
                pool.query(FLEET_PHASES)
                    .execute()
                    .map(
                        phases -> {
                          Map<String, Long> byStatus = new HashMap<>();
                          clusters.forEach(
                              r -> byStatus.put(r.getString("status"), r.getLong("n")));
                          Map<String, Long> byPhase = new HashMap<>();
                          long unresolved = 0;
                          for (Row r : phases) {
                            byPhase.put(r.getString("status"), r.getLong("n"));
                            unresolved += r.getLong("unresolved");
                          }
                          metrics.fleet(byStatus, byPhase, unresolved);
                          return null;
                        }));
  }

  public Future<Void> close() {
    closed = true;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    leader = false;
    return lock.release();
  }
}
