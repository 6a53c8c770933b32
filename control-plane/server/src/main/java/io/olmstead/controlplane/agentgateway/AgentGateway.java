package io.olmstead.controlplane.agentgateway;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.SchemaDecoder;
import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.config.EdgeRiskSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.db.DatabaseOutage;
import io.olmstead.controlplane.db.Notifications;
import io.olmstead.controlplane.preflight.PreflightStore;
import io.olmstead.controlplane.preflight.VerdictWriter;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane's side of the agent channel: enrollment, the WebSocket endpoint, desired-state
 * push, status ingestion, presence (heartbeats, disconnect window) and change notifications across
 * replicas. It wires those parts together and owns the connections' lifecycle (open, ready, closed,
 * drained at stop) and the hooks other components set; the presence tick is its {@link
 * PresenceTicker}'s, reactions to changes made elsewhere its {@link ChangeRouter}'s.
 */
public final class AgentGateway {
  private static final Logger LOG = LoggerFactory.getLogger(AgentGateway.class);

  private final Vertx vertx;
  private final Pool pool;
  private final GatewaySettings settings;
  private final SessionRegistry sessions = new SessionRegistry();
  private final GatewayMetrics metrics;
  private final CredentialStore credentials;
  private final ChannelStateStore state;
  private final DesiredPublisher publisher;
  private final StatusBatcher ingestor;
  private final VerdictWriter verdicts;
  private final ChangeRouter changes;
  private final PresenceTicker presence;
  private final CatalogContentCache catalogs;
  private final BundleContentHandler bundles;
  private final List<Long> timers = new ArrayList<>();
  private volatile boolean closing;
  private volatile boolean unreachable;
  // every upgraded connection, in its handshake or not: all get 1001 before the HTTP server stops
  private final Set<AgentSession> open = ConcurrentHashMap.newKeySet();
  private final Promise<Void> drained = Promise.promise();
  // the clusters this replica marks disconnected once its sessions are closed, those attached while
  // closing included
  private final Set<String> detachAtClose = ConcurrentHashMap.newKeySet();

  /**
   * How long stopping waits for agents to answer the close frames before the HTTP server cuts what
   * is left.
   */
  static final long CLOSE_WAIT_MILLIS = 3000;

  private final DatabaseOutage outage = new DatabaseOutage("agent credential lookups");
  // Handshakes in progress (connect to welcome): bounded so that a fleet reconnecting at once is
  // turned away
  // cheaply with 503 and backs off, instead of queueing on the database until every agent times
  // out; bounded per
  // source address and per credential so that no one client can take the slots.
  private final HandshakeLimits handshakes;
  // Big messages are decoded and validated here, off the event loop; a few threads, so a flood of
  // them waits its
  // turn instead of taking the shared worker pool from catalog parsing and the rest.
  private final WorkerExecutor decoder;
  private volatile BiConsumer<String, Long> ackObserver = (cluster, generation) -> {};
  private volatile BiConsumer<String, Inventory> inventorySink = (cluster, report) -> {};

  /**
   * {@code presencePool}: the presence tick's own connection ({@code DatabasePool.presence}), so
   * the replica's lease is renewed however long the main pool's queue; {@code maxBodyBytes}: the
   * limit catalogs were uploaded under (maturity holds read their reports); {@code edgeRisk}: how
   * edges agents take outside rollouts are recorded and held ({@link StatusEdgeRecorder}, {@link
   * EdgeHoldPublisher}); {@code clock}: their time.
   */
  public AgentGateway(
      Vertx vertx,
      Pool pool,
      Pool presencePool,
      Notifications notifications,
      MeterRegistry registry,
      GatewaySettings settings,
      long maxBodyBytes,
      EdgeRiskSettings edgeRisk,
      Clock clock) {
    this.vertx = vertx;
    this.pool = pool;
    this.settings = settings;
    this.metrics = new GatewayMetrics(registry, sessions::size);
    this.credentials = new CredentialStore(pool);
    this.verdicts = new VerdictWriter(vertx, pool, new PreflightStore());
    this.state = new ChannelStateStore(pool, presencePool, clock);
    this.publisher =
        new DesiredPublisher(
            vertx,
            FleetLoader.withHolds(vertx, pool, maxBodyBytes),
            state,
            sessions,
            new EdgeHoldPublisher(pool, edgeRisk, clock),
            metrics);
    StatusEdgeRecorder edges =
        new StatusEdgeRecorder(
            vertx,
            pool,
            edgeRisk,
            clock,
            (cluster, subscription) ->
                sessions.get(cluster).map(s -> s.sentVersion(subscription)).orElse(null));
    this.ingestor =
        new StatusBatcher(
            vertx, new StatusBatchWriter(pool, clock)::write, metrics, settings, edges::submit);
    this.changes = new ChangeRouter(sessions, publisher, credentials, state);
    this.presence = new PresenceTicker(sessions::all, state, settings, System::nanoTime);
    // every (re)connect of the LISTEN connection resyncs: notifications sent while it was away are
    // lost
    notifications.subscribe(
        Change.CHANNEL,
        payload -> Change.parse(payload).ifPresent(changes::onChange),
        changes::resync);
    // catalogs and bundles served to agents share one budget
    AgentContentCache contents =
        new AgentContentCache(settings.catalogCacheMegabytes() * 1024L * 1024L);
    metrics.catalogCacheBytes(contents::bytes);
    this.bundles = new BundleContentHandler(vertx, pool, credentials, contents);
    this.catalogs = new CatalogContentCache(vertx, pool, metrics, contents);
    this.handshakes =
        new HandshakeLimits(
            settings.maxHandshakes(),
            settings.handshakesPerSource(),
            settings.handshakesPerCredential());
    this.decoder = vertx.createSharedWorkerExecutor("olmstead-agent-decode", 2);
  }

  /**
   * Starts the periodic presence and resync tasks (changes come through the notifications given at
   * construction).
   */
  public Future<Void> start() {
    timers.add(vertx.setPeriodic(presence.periodMillis(), id -> presence.tick()));
    timers.add(
        vertx.setPeriodic(
            TimeUnit.SECONDS.toMillis(settings.resyncSeconds()), id -> changes.resync()));
    // Compiling the protocol's schemas takes about a second: on a worker, before the first agent is
    // decoded.
    return vertx.executeBlocking(SchemaDecoder::schemas).mapEmpty();
  }

  /**
   * Mounts the agent endpoints that are not JSON exchanges (the WebSocket, the streamed catalog)
   * ahead of the OpenAPI router; enrollment is a JSON exchange and goes through the API gate
   * (content type, NUL, schema) like every other.
   */
  public void mount(Router router) {
    router.get("/api/v1/agent/connect").handler(connectHandler());
    router.get("/api/v1/agent/catalogs/:digest").handler(catalogHandler());
    router.get("/api/v1/agent/bundles/:digest").handler(bundleHandler());
    router.get("/api/v1/agent/bundle-pins").handler(bundlePinHandler());
  }

  /** The handler of operationId getAgentBundlePin. */
  public Handler<RoutingContext> bundlePinHandler() {
    return new BundlePinHandler(pool, credentials);
  }

  /** The handler of operationId connectAgent (the WebSocket upgrade). */
  public Handler<RoutingContext> connectHandler() {
    return new ConnectHandler(this);
  }

  /** The handler of operationId getAgentBundle (one instance: it holds the bundle cache). */
  public Handler<RoutingContext> bundleHandler() {
    return bundles;
  }

  /** The handler of operationId getAgentCatalog. */
  public Handler<RoutingContext> catalogHandler() {
    return new CatalogContentHandler(catalogs, credentials);
  }

  /**
   * The handler of operationId enrollAgent, for binding from the OpenAPI router (expects a parsed
   * JSON body).
   */
  public EnrollHandler enrollHandler() {
    return new EnrollHandler(new Enrollment(pool), metrics);
  }

  /** Closes every agent connection (agents reconnect to another replica). */
  public Future<Void> close() {
    closing = true;
    timers.forEach(vertx::cancelTimer);
    sessions.all().forEach(s -> detachAtClose.add(s.cluster()));
    List.copyOf(open).forEach(s -> s.close(CloseReason.SHUTTING_DOWN, "control plane stopping"));
    if (open.isEmpty()) {
      drained.tryComplete();
    }
    long timer = vertx.setTimer(CLOSE_WAIT_MILLIS, id -> drained.tryComplete());
    return drained
        .future()
        .onComplete(v -> vertx.cancelTimer(timer))
        .compose(v -> state.detachAll(settings.replica(), List.copyOf(detachAtClose)))
        .recover(
            e -> {
              LOG.warn("clusters of this replica not marked disconnected: {}", e.toString());
              return Future.succeededFuture();
            })
        .compose(v -> decoder.close())
        .recover(e -> Future.succeededFuture());
  }

  public CredentialStore credentials() {
    return credentials;
  }

  public int connectedAgents() {
    return sessions.size();
  }

  /**
   * Test and benchmark hook: observes every desired-state ack (cluster, generation) received on
   * this replica.
   */
  public void onAck(BiConsumer<String, Long> observer) {
    this.ackObserver = observer;
  }

  /** Where agents' inventory reports go (the inventory component), with the reporting cluster. */
  public void onInventory(BiConsumer<String, Inventory> sink) {
    this.inventorySink = sink;
  }

  /**
   * Told (with the cluster's name) when any replica's HyperShift watcher enrolled a hosted cluster.
   */
  public void onHostedEnrolled(Consumer<String> listener) {
    changes.onHostedEnrolled(listener);
  }

  void inventory(String cluster, Inventory report) {
    inventorySink.accept(cluster, report);
  }

  /**
   * Told whether this replica can use its database: while it cannot, its agents are let go with
   * 1001 (they redial, and reach a replica that can serve them) and new connections are refused
   * with 503, as when it stops.
   */
  public void databaseReachable(boolean reachable) {
    unreachable = !reachable;
    if (!reachable) {
      List.copyOf(open)
          .forEach(
              s -> s.close(CloseReason.SHUTTING_DOWN, "this replica cannot reach its database"));
    }
  }

  /** Whether the gateway is stopping (new agent connections are refused). */
  boolean closing() {
    return closing;
  }

  /** Whether new agent connections are refused because this replica cannot use its database. */
  boolean unreachable() {
    return unreachable;
  }

  /** Tracks an upgraded connection; one that arrives while stopping is closed at once. */
  void opened(AgentSession session) {
    open.add(session);
    if (closing) {
      session.close(CloseReason.SHUTTING_DOWN, "control plane stopping");
    } else if (unreachable) {
      session.close(CloseReason.SHUTTING_DOWN, "this replica cannot reach its database");
    }
  }

  DatabaseOutage outage() {
    return outage;
  }

  /** The handshake limits of both agent endpoints (this one's and the hosted pool's). */
  public HandshakeLimits handshakes() {
    return handshakes;
  }

  WorkerExecutor decoder() {
    return decoder;
  }

  GatewaySettings settings() {
    return settings;
  }

  GatewayMetrics metrics() {
    return metrics;
  }

  StatusBatcher ingestor() {
    return ingestor;
  }

  /** Empty when a later session (on any replica) holds the cluster already. */
  Future<Optional<ChannelStateStore.Attached>> attach(AgentSession session, Hello hello) {
    return state.attach(
        session.cluster(), session.id(), settings.replica(), session.order(), hello);
  }

  void ready(AgentSession session) {
    sessions
        .register(session)
        .ifPresent(old -> old.close(CloseReason.REPLACED, "a newer connection took over"));
    publisher.clusterChanged(session.cluster());
    changes.sendApprovals(session);
  }

  void closed(AgentSession session) {
    open.remove(session);
    if (closing && open.isEmpty()) {
      drained.tryComplete();
    }
    sessions.remove(session);
    if (session.isReadyOnce() && closing) {
      detachAtClose.add(
          session.cluster()); // attached while the close began: detached with the others
    } else if (session.isReadyOnce()) {
      detach(session);
    }
  }

  /**
   * A session closed before its attach was stored: the cluster is marked disconnected again unless
   * a newer session took it over, so no cluster stays connected without a session.
   */
  void attachedAfterClose(AgentSession session) {
    detach(session);
  }

  private void detach(AgentSession session) {
    state
        .detach(session.cluster(), session.id())
        .onFailure(
            e -> {
              LOG.warn(
                  "cluster {}: not marked disconnected yet: {}", session.cluster(), e.toString());
              presence.detachLater(session.cluster(), session.id());
            });
  }

  /**
   * A preflight verdict from {@code session}'s agent: stored for that cluster's request only (an
   * answer naming another cluster's or an unknown request changes nothing). A verdict the database
   * refuses (a failover) is written again with backoff until it is stored or its request expires.
   */
  void preflight(AgentSession session, Preflight answer) {
    verdicts
        .write(session.cluster(), answer)
        .onComplete(
            ar -> {
              if (ar.failed()) {
                LOG.warn(
                    "cluster {}: preflight verdict not stored before its request expired: {}",
                    session.cluster(),
                    ar.cause().toString());
              } else if (!ar.result()) {
                LOG.debug(
                    "cluster {}: preflight verdict for no open request ignored", session.cluster());
              }
            });
  }

  void acked(AgentSession session, long generation) {
    ackObserver.accept(session.cluster(), generation);
  }

  /**
   * An agent's {@code kind} message ({@code status}, {@code inventory}) named another cluster:
   * logged and audited.
   */
  void wrongCluster(AgentSession session, String kind, String claimed) {
    LOG.warn(
        "cluster {}: {} claimed to be for cluster {}; connection closed",
        session.cluster(),
        kind,
        claimed);
    JsonObject detail =
        new JsonObject()
            .put("claimedCluster", claimed.length() > 253 ? claimed.substring(0, 253) : claimed)
            .put("session", session.id());
    Audit.record(
            pool,
            AuditEntry.system(
                "cluster:" + session.cluster(),
                "agent." + kind,
                "clusters/" + session.cluster(),
                "rejected-wrong-cluster",
                detail))
        .onFailure(e -> LOG.error("audit of a wrong-cluster report failed", e));
  }
}
