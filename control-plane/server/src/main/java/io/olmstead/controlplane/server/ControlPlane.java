package io.olmstead.controlplane.server;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.olmstead.controlplane.adoption.Adoption;
import io.olmstead.controlplane.agentgateway.AgentApiModule;
import io.olmstead.controlplane.agentgateway.AgentGateway;
import io.olmstead.controlplane.auth.BootstrapAdmin;
import io.olmstead.controlplane.auth.OidcIssuer;
import io.olmstead.controlplane.auth.TokenAuthenticator;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.MetricsSettings;
import io.olmstead.controlplane.db.DatabasePool;
import io.olmstead.controlplane.db.DatabaseReadiness;
import io.olmstead.controlplane.db.DatabaseWatch;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.db.Notifications;
import io.olmstead.controlplane.db.StartupException;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.db.UnhandledExceptions;
import io.olmstead.controlplane.edgerisk.EdgeRisksModule;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRouter;
import io.olmstead.controlplane.http.ErrorHandlers;
import io.olmstead.controlplane.http.InvalidRequests;
import io.olmstead.controlplane.http.OpsRoutes;
import io.olmstead.controlplane.http.RequestIds;
import io.olmstead.controlplane.http.StartupGate;
import io.olmstead.controlplane.hypershift.Hypershift;
import io.olmstead.controlplane.hypershift.pool.HostedAgentPool;
import io.olmstead.controlplane.hypershift.pool.PoolTokensModule;
import io.olmstead.controlplane.inventory.Inventories;
import io.olmstead.controlplane.registry.BundlesModule;
import io.olmstead.controlplane.rollout.Rollouts;
import io.olmstead.controlplane.signals.SignalEvaluator;
import io.olmstead.controlplane.subscription.SubscriptionsModule;
import io.olmstead.controlplane.ui.Dashboard;
import io.olmstead.controlplane.ui.OidcLogin;
import io.olmstead.controlplane.ui.WebJars;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.sqlclient.Pool;
import java.net.BindException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running control plane: one Vert.x, one database pool, one HTTP server; started and stopped as a
 * unit.
 */
public final class ControlPlane implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlane.class);

  private final Vertx vertx;
  private final DatabasePool database;
  private final HttpServer server;
  private final Optional<String> generatedAdminToken;
  private final AgentGateway agentGateway;
  private final Notifications notifications;
  private final ApiRouter api;
  private final Router router;
  private BundlesModule bundles;
  private Rollouts rollouts;
  private Hypershift hypershift;
  private Inventories inventory;
  private HostedAgentPool hostedPool;
  private SignalEvaluator signals;
  private Adoption adoption;

  private ControlPlane(
      Vertx vertx,
      DatabasePool database,
      HttpServer server,
      Optional<String> generatedAdminToken,
      AgentGateway agentGateway,
      Notifications notifications,
      ApiRouter api,
      Router router) {
    this.vertx = vertx;
    this.database = database;
    this.server = server;
    this.generatedAdminToken = generatedAdminToken;
    this.agentGateway = agentGateway;
    this.notifications = notifications;
    this.api = api;
    this.router = router;
  }

  /**
   * Migrates the database (when configured), connects, and listens; fails with a {@link
   * StartupException}.
   */
  public static Future<ControlPlane> start(ControlPlaneConfig config) {
    return start(config, StartupGate.open());
  }

  /**
   * As {@link #start(ControlPlaneConfig)}, with {@code /readyz} held by {@code gate} until the
   * caller releases it.
   */
  public static Future<ControlPlane> start(ControlPlaneConfig config, StartupGate gate) {
    return start(config, gate, Clock.systemUTC());
  }

  /**
   * As {@link #start(ControlPlaneConfig, StartupGate)}, reading the time from {@code clock} (token
   * lifetimes, rollout windows, freezes, soaks and deadlines): tests move it instead of waiting for
   * the real time to pass.
   */
  public static Future<ControlPlane> start(
      ControlPlaneConfig config, StartupGate gate, Clock clock) {
    DatabaseSettings db = config.requireDatabase();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx =
        Vertx.vertx(
            new VertxOptions()
                .setMetricsOptions(
                    new MicrometerMetricsOptions().setEnabled(true).setMicrometerRegistry(registry))
                .setWarningExceptionTime(TimeUnit.SECONDS.toNanos(5)));
    UnhandledExceptions.install(vertx);
    bindJvmMetrics(registry);
    DatabasePool database =
        DatabasePool.create(
            vertx,
            db,
            config.databaseHealth(),
            config.dbPoolSize(),
            config.agent().replica(),
            Math.max(1, config.agent().disconnectSeconds() / 3));
    Pool pool = database.pool();
    return vertx
        .<String>executeBlocking(() -> prepareSchema(config, db), false)
        .compose(
            expectedVersion ->
                BootstrapAdmin.ensure(pool, config.adminToken())
                    .recover(e -> bootstrapFailed(config, db, e))
                    .compose(
                        token -> {
                          // the one LISTEN connection: components subscribe to their channels here,
                          // it connects once all have
                          Notifications notifications =
                              new Notifications(vertx, db.connectOptions(), pool);
                          AgentGateway gateway =
                              new AgentGateway(
                                  vertx,
                                  pool,
                                  database.presence(),
                                  notifications,
                                  registry,
                                  config.agent(),
                                  config.maxBodyBytes(),
                                  config.edgeRisk(),
                                  clock);
                          OidcIssuer oidc = OidcIssuer.start(vertx, config.oidc(), clock);
                          ApiContext context =
                              new ApiContext(
                                  vertx,
                                  pool,
                                  new Tx(pool),
                                  config,
                                  new TokenAuthenticator(pool, oidc, clock),
                                  registry);
                          List<ApiModule> modules = new ArrayList<>(ApiModules.all());
                          modules.add(new AgentApiModule(gateway));
                          var bundles = new BundlesModule();
                          modules.add(bundles);
                          var rollouts =
                              new Rollouts(
                                  vertx,
                                  pool,
                                  db.connectOptions(),
                                  notifications,
                                  registry,
                                  config.maxBodyBytes(),
                                  clock,
                                  config.prometheus(),
                                  config.edgeRisk());
                          modules.add(rollouts.module());
                          modules.add(rollouts.templatesModule());
                          modules.add(new SubscriptionsModule(rollouts.declared()));
                          modules.add(new EdgeRisksModule(clock));
                          // a revocation made on another replica empties this replica's token cache
                          // at once, not after its lifetime
                          context.authenticator().followRevocations(notifications);
                          var inventory = new Inventories(vertx, pool, registry);
                          gateway.onInventory(inventory::submit);
                          modules.add(inventory.module());
                          var hypershift =
                              new Hypershift(
                                  vertx, pool, db.connectOptions(), registry, config.hypershift());
                          var hostedPool =
                              new HostedAgentPool(
                                  vertx,
                                  pool,
                                  config.hypershift().agents(),
                                  config.agent().replica(),
                                  gateway.handshakes(),
                                  clock);
                          modules.add(new PoolTokensModule(hostedPool));
                          var signals =
                              new SignalEvaluator(
                                  vertx,
                                  pool,
                                  db.connectOptions(),
                                  registry,
                                  config.webhooks().signals());
                          var adoption = new Adoption(vertx, pool, db.connectOptions());
                          modules.add(adoption.module());
                          gateway.onHostedEnrolled(cluster -> hostedPool.assignSoon());
                          // a replica that cannot use the database lets its agents go (they redial
                          // another) until it can
                          database.watch().onChange(gateway::databaseReachable);
                          database.watch().start();
                          return startNotifications(notifications)
                              .compose(v -> gateway.start())
                              .compose(v -> rollouts.start())
                              .compose(v -> inventory.start())
                              .compose(v -> hypershift.start())
                              .compose(v -> hostedPool.start())
                              .compose(v -> signals.start())
                              .compose(v -> adoption.start())
                              .compose(v -> ApiRouter.create(context, modules))
                              .compose(
                                  api -> {
                                    Router router =
                                        routes(
                                            vertx,
                                            pool,
                                            registry,
                                            expectedVersion,
                                            gateway,
                                            api,
                                            hostedPool,
                                            new OidcLogin(config.oidc(), oidc),
                                            gate,
                                            config.metrics(),
                                            database.watch());
                                    return listen(vertx, config, router)
                                        .map(
                                            server ->
                                                new ControlPlane(
                                                    vertx,
                                                    database,
                                                    server,
                                                    token,
                                                    gateway,
                                                    notifications,
                                                    api,
                                                    router))
                                        .map(
                                            cp -> {
                                              cp.bundles = bundles;
                                              cp.rollouts = rollouts;
                                              cp.hypershift = hypershift;
                                              cp.inventory = inventory;
                                              cp.hostedPool = hostedPool;
                                              cp.signals = signals;
                                              cp.adoption = adoption;
                                              return cp;
                                            });
                                  });
                        }))
        .onFailure(e -> vertx.close());
  }

  /**
   * A first connect that fails is not fatal: resyncs still converge and the connection is tried
   * again.
   */
  private static Future<Void> startNotifications(Notifications notifications) {
    return notifications
        .start()
        .recover(
            e -> {
              LOG.warn("database notifications unavailable at start: {}", e.toString());
              return Future.succeededFuture();
            });
  }

  /**
   * Without migrations at start the schema may be missing: serve anyway and let /readyz say why.
   */
  private static Future<Optional<String>> bootstrapFailed(
      ControlPlaneConfig config, DatabaseSettings db, Throwable e) {
    if (!config.migrateOnStart()) {
      LOG.warn(
          "admin token not stored (schema not ready: {}); /readyz reports not ready",
          e.getMessage());
      return Future.succeededFuture(Optional.empty());
    }
    return Future.failedFuture(
        new StartupException(
            "database unreachable at " + db.describe() + ": " + e.getMessage(), e));
  }

  private static String prepareSchema(ControlPlaneConfig config, DatabaseSettings db) {
    if (config.migrateOnStart()) {
      int applied = Migrations.migrate(db);
      LOG.info("database {} migrated ({} migrations applied)", db.describe(), applied);
    }
    return Migrations.latestPackagedVersion(db);
  }

  private static Router routes(
      Vertx vertx,
      Pool pool,
      PrometheusMeterRegistry registry,
      String expectedVersion,
      AgentGateway gateway,
      ApiRouter api,
      HostedAgentPool hostedPool,
      OidcLogin oidcLogin,
      StartupGate gate,
      MetricsSettings metricsAccess,
      DatabaseWatch watch) {
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::handle);
    new OpsRoutes(
            new DatabaseReadiness(vertx, pool, expectedVersion),
            registry,
            gate,
            metricsAccess,
            watch::unhealthyReason)
        .mount(router);
    oidcLogin.mount(router); // ahead of the dashboard's routes: /ui/config.json and its CSP
    WebJars.mount(router);
    Dashboard.mount(router);
    gateway.mount(router);
    hostedPool.mount(router);
    api.mount(router);
    ErrorHandlers.mount(router);
    return router;
  }

  private static Future<HttpServer> listen(Vertx vertx, ControlPlaneConfig config, Router router) {
    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(config.bindHost())
            .setPort(config.port())
            .setCompressionSupported(true)
            .setMaxHeaderSize(16 * 1024)
            .setMaxInitialLineLength(8 * 1024)
            // Idle connections (kept-alive or never finishing their request) are closed; agents and
            // event streams
            // stay busier than this with their heartbeats and pings.
            .setIdleTimeout(config.agent().idleTimeoutSeconds())
            // Above the gateway's own limits, so that it closes oversize agent messages with its
            // clear reasons.
            .setMaxWebSocketFrameSize(2 * config.agent().maxFrameBytes())
            .setMaxWebSocketMessageSize(2 * config.agent().maxMessageBytes());
    return vertx
        .createHttpServer(options)
        .requestHandler(router)
        .invalidRequestHandler(InvalidRequests::handle)
        .listen()
        .recover(
            e ->
                Future.failedFuture(
                    e instanceof BindException
                        ? new StartupException(
                            "port "
                                + config.port()
                                + " on "
                                + config.bindHost()
                                + " is already in use (choose another with --port or "
                                + ControlPlaneConfig.PORT
                                + ")")
                        : new StartupException(
                            "cannot listen on "
                                + config.bindHost()
                                + ":"
                                + config.port()
                                + ": "
                                + e.getMessage(),
                            e)));
  }

  private static void bindJvmMetrics(PrometheusMeterRegistry registry) {
    new ClassLoaderMetrics().bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  public int port() {
    return server.actualPort();
  }

  public Vertx vertx() {
    return vertx;
  }

  public Pool pool() {
    return database.pool();
  }

  /** The REST API as built from openapi.yaml. */
  public ApiRouter api() {
    return api;
  }

  /** Every route the server serves (the test keeping routes and spec in step reads it). */
  public Router router() {
    return router;
  }

  /** Bundle images: unpacks, catalog image polls and the tag-pin sweep. */
  public BundlesModule bundles() {
    return bundles;
  }

  /** The rollout component (engine, event stream). */
  public Rollouts rollouts() {
    return rollouts;
  }

  /**
   * The HyperShift component (watcher on the leader replica, when a management cluster is
   * configured).
   */
  public Hypershift hypershift() {
    return hypershift;
  }

  /** The inventory component (agents' reports, fleet gauges). */
  public Inventories inventory() {
    return inventory;
  }

  /** The hosted agent pool's control plane side (pool connections, assignment). */
  public HostedAgentPool hostedPool() {
    return hostedPool;
  }

  /**
   * The subscription signals and cluster disconnection events (evaluated on the replica holding
   * their lock).
   */
  public SignalEvaluator signals() {
    return signals;
  }

  /** Adoption over time (the sampler on the leader replica). */
  public Adoption adoption() {
    return adoption;
  }

  public AgentGateway agentGateway() {
    return agentGateway;
  }

  /**
   * The admin token generated at this start, to be shown once; empty when one was configured or
   * already stored.
   */
  public Optional<String> generatedAdminToken() {
    return generatedAdminToken;
  }

  @Override
  public void close() {
    try {
      (hypershift == null ? Future.<Void>succeededFuture() : hypershift.close())
          .eventually(
              () -> hostedPool == null ? Future.<Void>succeededFuture() : hostedPool.close())
          .eventually(() -> rollouts == null ? Future.<Void>succeededFuture() : rollouts.close())
          .eventually(() -> signals == null ? Future.<Void>succeededFuture() : signals.close())
          .eventually(() -> inventory == null ? Future.<Void>succeededFuture() : inventory.close())
          .eventually(() -> adoption == null ? Future.<Void>succeededFuture() : adoption.close())
          .eventually(() -> agentGateway.close())
          .eventually(() -> notifications.close())
          .eventually(() -> server.close())
          .eventually(() -> database.close())
          .toCompletionStage()
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
      // Vert.x completes its own close on a thread of its own, so it is awaited apart from the
      // chain above.
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("control plane did not stop cleanly: {}", e.toString());
    }
  }
}
