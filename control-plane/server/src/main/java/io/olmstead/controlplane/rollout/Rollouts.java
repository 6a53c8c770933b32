package io.olmstead.controlplane.rollout;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.analysis.AnalysisTemplatesModule;
import io.olmstead.controlplane.analysis.PrometheusClient;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.config.PrometheusSettings;
import io.olmstead.controlplane.db.Notifications;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.maturity.MaturityService;
import io.olmstead.controlplane.subscription.DeclaredRollouts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.time.Clock;

/**
 * The rollout component as the control plane wires it: its REST module, its event stream and its
 * engine.
 */
public final class Rollouts {
  /** How often the engine steps active rollouts. */
  static final long TICK_MILLIS = 500;

  private final RolloutEvents events;
  private final RolloutEngine engine;
  private final RolloutsModule module;
  private final PrometheusClient prometheus;
  private final RolloutStarts starts;

  /**
   * {@code maxBodyBytes}: the limit catalogs were uploaded under (their maturity reports parse them
   * again); {@code clock}: the time the engine steps at and previews plan from (windows, freezes,
   * soaks, deadlines); {@code prometheus}: where analysis checks are measured; {@code edgeRisk}:
   * how failed upgrade edges hold clusters; {@code notifications}: where the event stream listens.
   */
  public Rollouts(
      Vertx vertx,
      Pool pool,
      PgConnectOptions connectOptions,
      Notifications notifications,
      MeterRegistry registry,
      long maxBodyBytes,
      Clock clock,
      PrometheusSettings prometheus,
      EdgeRiskSettings edgeRisk) {
    this.prometheus = new PrometheusClient(vertx, prometheus);
    this.events = new RolloutEvents(vertx, pool, notifications, registry);
    Gauge.builder("olmstead.event.streams", events, RolloutEvents::clients)
        .description("Open GET /events streams on this replica")
        .register(registry);
    RolloutMetrics metrics = new RolloutMetrics(registry);
    RolloutMaturity maturity =
        new RolloutMaturity(new MaturityService(vertx, new Tx(pool), maxBodyBytes));
    this.engine =
        new RolloutEngine(
            vertx,
            pool,
            connectOptions,
            metrics,
            TICK_MILLIS,
            maturity,
            clock,
            this.prometheus,
            edgeRisk);
    AnalysisChecks checks = new AnalysisChecks(this.prometheus);
    this.starts = new RolloutStarts(checks, metrics, pool);
    this.module = new RolloutsModule(events, metrics, maturity, clock, checks, starts);
  }

  public RolloutsModule module() {
    return module;
  }

  /**
   * {@code /analysis-templates}, validated against the same Prometheus the checks are measured on.
   */
  public AnalysisTemplatesModule templatesModule() {
    return new AnalysisTemplatesModule(prometheus);
  }

  /**
   * What starts the rollout a subscription's declared version change asks for (its {@code
   * rolloutStrategy}).
   */
  public DeclaredRollouts declared() {
    return starts;
  }

  public RolloutEngine engine() {
    return engine;
  }

  /**
   * Starts the event stream's token re-check and the engine's timer (it steps only while holding
   * the advisory lock).
   */
  public Future<Void> start() {
    return events.start().onSuccess(v -> engine.start());
  }

  public Future<Void> close() {
    return engine.close().eventually(events::close).onComplete(v -> prometheus.close());
  }
}
