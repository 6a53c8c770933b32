package io.olmstead.controlplane.hypershift.pool;

import io.olmstead.apispec.protocol.TickPauses;
import io.olmstead.controlplane.agentgateway.BearerToken;
import io.olmstead.controlplane.agentgateway.HandshakeLimits;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.http.HostAddresses;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane's side of the hosted agent pool ({@code GET /api/v1/agent/pool}, pool token):
 * every replica keeps the pool connections it holds alive in {@code pool_members}, and every {@code
 * assignSeconds} computes the same {@link PoolAssignment} from the live pool replicas and the
 * hypershift-enrolled clusters, then hands its own connections the clusters that became theirs (a
 * fresh agent credential each) and tells them which to let go.
 */
public final class HostedAgentPool {
  private static final Logger LOG = LoggerFactory.getLogger(HostedAgentPool.class);

  private final Vertx vertx;
  private final PoolStore store;
  private final PoolSettings settings;
  private final String replica;
  private final HandshakeLimits handshakes;
  private final Clock clock;
  private final Map<String, PoolSession> sessions = new ConcurrentHashMap<>();
  private final TickPauses pauses;
  private long timer = -1;
  private long keepAliveTimer = -1;
  private long soon = -1;
  private boolean ticking;
  private boolean again;
  private volatile boolean closing;

  /**
   * {@code handshakes}: the agent gateway's limits, so a source's pool and agent handshakes count
   * together; {@code clock}: when a pool replica was last heard (its silence is measured on it).
   */
  public HostedAgentPool(
      Vertx vertx,
      Pool pool,
      PoolSettings settings,
      String replica,
      HandshakeLimits handshakes,
      Clock clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.pauses = new TickPauses(TimeUnit.MILLISECONDS.toNanos(clock.millis()));
    this.store = new PoolStore(pool);
    this.settings = settings;
    this.replica = replica;
    this.handshakes = handshakes;
  }

  public Future<Void> start() {
    long period = TimeUnit.SECONDS.toMillis(settings.assignSeconds());
    timer = vertx.setPeriodic(period, id -> tick());
    // on a timer of its own: a round handing over hundreds of clusters (a transaction per batch)
    // can outlast the
    // replicas' patience, and they must still hear from us (and our rows in pool_members stay
    // fresh) meanwhile
    keepAliveTimer =
        vertx.setPeriodic(
            period,
            id ->
                keepAlive()
                    .onFailure(e -> LOG.warn("pool heartbeat failed: {}", e.toString()))
                    .onSuccess(
                        live -> {
                          if (live.dropped()) {
                            tick(); // the silent replica's clusters go to the live ones now, not at
                            // the next round
                          }
                        }));
    return Future.succeededFuture();
  }

  /** Mounts the pool's WebSocket ahead of the OpenAPI router (like the agent's). */
  public void mount(Router router) {
    router.get("/api/v1/agent/pool").handler(connectHandler());
  }

  /** The handler of operationId connectPool. */
  public Handler<RoutingContext> connectHandler() {
    return this::connect;
  }

  public Future<Void> close() {
    closing = true;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    if (keepAliveTimer >= 0) {
      vertx.cancelTimer(keepAliveTimer);
    }
    List<Future<Void>> left = new ArrayList<>();
    for (PoolSession s : sessions.values()) {
      s.close(1001, "control plane stopping");
      if (s.member() != null) {
        left.add(store.leave(s.member(), s.id()));
      }
    }
    return Future.join(left).<Void>mapEmpty().recover(e -> Future.succeededFuture());
  }

  /** Pool replicas connected to this control plane replica (tests, metrics). */
  public int connectedReplicas() {
    return (int) sessions.values().stream().filter(s -> s.member() != null).count();
  }

  private void connect(RoutingContext ctx) {
    if (!"websocket".equalsIgnoreCase(ctx.request().getHeader("Upgrade"))) {
      Problems.send(
          ctx.response(),
          Problems.problem(
              400, "bad-request", "Bad request", "this endpoint only upgrades to a WebSocket"));
      return;
    }
    Optional<String> secret = BearerToken.of(ctx.request());
    if (secret.isEmpty() || closing) {
      refuse(ctx, closing);
      return;
    }
    // the agent endpoint's per-source and total bounds on token lookups: a flood of bogus tokens
    // from one address
    // holds at most a few database connections and is turned away with 429 before any lookup
    HandshakeLimits.Permit permit = handshakes.enter(HostAddresses.source(ctx.request()));
    if (permit.refusal() != null) {
      permit.refusal().send(ctx.response());
      return;
    }
    ctx.request().pause();
    store
        .authenticate(secret.get())
        .onComplete(
            ar -> {
              HandshakeLimits.Refusal refusal =
                  ar.succeeded() && ar.result().isPresent()
                      ? permit.authenticated("pool:" + ar.result().get())
                      : null;
              if (ar.failed() || ar.result().isEmpty() || refusal != null) {
                permit.release();
                if (ar.failed()) {
                  LOG.warn("pool token not checked: {}", ar.cause().toString());
                }
                if (refusal != null) {
                  refusal.send(ctx.response());
                } else {
                  refuse(ctx, ar.failed());
                }
                return;
              }
              ctx.request()
                  .toWebSocket()
                  .onFailure(e -> permit.release())
                  .onSuccess(
                      ws -> {
                        PoolSession session =
                            new PoolSession(ws, Vertx.currentContext(), ar.result().get(), clock);
                        sessions.put(session.id(), session);
                        // the handshake ends at hello (or the close): the permit's slot is free
                        // again
                        session.start(
                            s -> {
                              permit.release();
                              hello(s);
                            },
                            () -> {
                              permit.release();
                              closed(session);
                            });
                        vertx.setTimer(
                            10_000,
                            id -> {
                              if (session.member() == null) {
                                session.close(4408, "no hello");
                              }
                            });
                      });
            });
  }

  private void hello(PoolSession session) {
    store
        .join(session.member(), session.tokenId(), replica, session.id(), settings.liveSeconds())
        .onSuccess(
            joined -> {
              if (joined && !sessions.containsKey(session.id())) {
                // closed while its join was on its way: the close found no row to remove, so the
                // row the join stored goes now, and the name is free at once
                leave(session);
                return;
              }
              if (!joined) {
                // the live holder keeps the name (and its clusters' credentials): the newcomer
                // retries with backoff and gets
                // it once the holder's connection closes or falls silent
                LOG.warn(
                    "pool replica {}: a second connection claims the name of a live one: refused",
                    session.member());
                sessions.remove(session.id());
                session.close(
                    NAME_IN_USE,
                    "pool replica name "
                        + session.member()
                        + " is held by a live connection; "
                        + "retry after it closes or is silent for "
                        + settings.liveSeconds()
                        + "s");
                return;
              }
              LOG.info(
                  "pool replica {} connected (holding {} clusters)",
                  session.member(),
                  session.held().size());
              session.welcome(settings.assignSeconds());
              tick();
            })
        .onFailure(
            e -> {
              LOG.warn("pool replica {} not registered: {}", session.member(), e.toString());
              session.close(1011, "try again");
            });
  }

  private void closed(PoolSession session) {
    // a connection refused or dropped here is gone from the map already, and has no row of its own
    // to remove
    if (sessions.remove(session.id()) != null && session.member() != null && !closing) {
      LOG.info("pool replica {} disconnected", session.member());
      // gone from the live set at once, so the other control plane replicas reassign its clusters
      // at their next round
      leave(session);
    }
  }

  private void leave(PoolSession session) {
    store
        .leave(session.member(), session.id())
        .onFailure(
            e -> LOG.warn("pool replica {} not removed: {}", session.member(), e.toString()));
  }

  private static void refuse(RoutingContext ctx, boolean unavailable) {
    if (unavailable) {
      ctx.response().putHeader("Retry-After", "5");
      Problems.send(
          ctx.response(),
          Problems.problem(503, "unavailable", "Unavailable", "retry with backoff"));
      return;
    }
    ctx.response().putHeader("WWW-Authenticate", "Bearer");
    Problems.send(
        ctx.response(),
        Problems.problem(401, "unauthorized", "Unauthorized", "a live pool token is required"));
  }

  /**
   * A hosted cluster was enrolled (on any replica): a round runs within {@value #SOON_MILLIS} ms,
   * rather than at the next tick, so its credential reaches its pool replica at once; a burst of
   * enrollments shares one round.
   */
  public synchronized void assignSoon() {
    if (soon < 0 && !closing) {
      soon =
          vertx.setTimer(
              SOON_MILLIS,
              id -> {
                synchronized (this) {
                  soon = -1;
                }
                tick();
              });
    }
  }

  static final long SOON_MILLIS = 100;

  /** The close code of a connection whose hello names a pool replica a live connection holds. */
  static final int NAME_IN_USE = 4409;

  /** Clusters handed over in one transaction (a round taking over 500 clusters is two of them). */
  static final int HANDOVER_BATCH = 250;

  /**
   * One assignment round; rounds never overlap (a slow one delays the next rather than racing it),
   * and one asked for while another runs follows it.
   */
  private synchronized void tick() {
    if (closing) {
      return;
    }
    if (ticking) {
      again = true;
      return;
    }
    ticking = true;
    round()
        .onComplete(
            ar -> {
              boolean next;
              synchronized (this) {
                ticking = false;
                next = again;
                again = false;
              }
              if (ar.failed()) {
                LOG.warn("pool assignment round failed: {}", ar.cause().toString());
              }
              if (next) {
                tick();
              }
            });
  }

  private Future<Void> round() {
    return keepAlive()
        .compose(
            live ->
                live.sessions().isEmpty()
                    ? Future.<Void>succeededFuture()
                    : store
                        .snapshot(settings.liveSeconds())
                        .compose(snapshot -> apply(snapshot, live.sessions())));
  }

  /**
   * The connections kept alive by one {@link #keepAlive()}, and whether a silent one was dropped.
   */
  private record Live(List<PoolSession> sessions, boolean dropped) {}

  /**
   * Closes the connections silent for too long and removes their rows at once, refreshes the
   * others' rows and sends them a heartbeat; closes those whose token was revoked or whose replica
   * connected again elsewhere. The row of a silent (frozen, cut-off) replica goes with the close,
   * not when its TCP connection ends: a frozen peer never answers the close frame, so that end
   * comes only after the server's closing timeout, and until then the replica would count as live
   * and keep its clusters. A keep-alive that comes late (this replica was paused) closes nobody and
   * the pause is not counted as the pool replicas' silence ({@link TickPauses}): their heartbeats
   * were not read during it either.
   */
  private Future<Live> keepAlive() {
    if (closing) {
      return Future.succeededFuture(new Live(List.of(), false));
    }
    long window = TimeUnit.SECONDS.toNanos(settings.liveSeconds());
    long now = TimeUnit.MILLISECONDS.toNanos(clock.millis());
    long late;
    synchronized (pauses) {
      late = pauses.tick(now, TimeUnit.SECONDS.toNanos(settings.assignSeconds()), window);
    }
    if (late > 0) {
      LOG.warn(
          "pool keep-alive {} ms late: this replica was paused; pool replicas' deadlines moved by as much",
          TimeUnit.NANOSECONDS.toMillis(late));
    }
    List<PoolSession> mine = new ArrayList<>();
    List<Future<Void>> left = new ArrayList<>();
    for (PoolSession s : sessions.values()) {
      if (s.member() == null) {
        continue;
      }
      if (late == 0 && silence(now, s) > window) {
        LOG.info(
            "pool replica {} silent for over {} s: dropped", s.member(), settings.liveSeconds());
        sessions.remove(s.id());
        s.close(4408, "silent for over " + settings.liveSeconds() + "s");
        left.add(store.leave(s.member(), s.id()));
      } else {
        mine.add(s);
      }
    }
    boolean dropped = !left.isEmpty();
    return Future.all(left)
        .compose(v -> store.heartbeat(mine.stream().map(PoolSession::id).toList()))
        .map(
            kept -> {
              List<PoolSession> live = new ArrayList<>();
              for (PoolSession s : mine) {
                if (kept.contains(s.id())) {
                  s.heartbeat();
                  live.add(s);
                } else {
                  s.close(
                      4401, "pool token revoked or a newer connection of this replica took over");
                }
              }
              return new Live(live, dropped);
            });
  }

  private long silence(long now, PoolSession s) {
    synchronized (pauses) {
      return pauses.silence(now, TimeUnit.MILLISECONDS.toNanos(s.lastHeardMillis()));
    }
  }

  private Future<Void> apply(PoolStore.Snapshot snapshot, List<PoolSession> live) {
    // per-cluster mode: the control plane deploys each cluster's agent, so pool replicas serve (and
    // keep) none
    Map<String, String> owners =
        settings.perCluster()
            ? Map.of()
            : PoolAssignment.assign(snapshot.targets().keySet(), snapshot.members());
    Future<Void> chain = Future.succeededFuture();
    for (PoolSession session : live) {
      PoolAssignment.Plan plan =
          PoolAssignment.plan(session.member(), owners, session.held(), snapshot.handedTo());
      plan.release().forEach(session::release);
      if (!plan.release().isEmpty()) {
        LOG.info("pool replica {}: {} clusters released", session.member(), plan.release().size());
      }
      List<String> handOver = List.copyOf(plan.handOver());
      for (int from = 0; from < handOver.size(); from += HANDOVER_BATCH) {
        List<String> batch =
            handOver.subList(from, Math.min(handOver.size(), from + HANDOVER_BATCH));
        // each batch is sent as soon as it commits, so the first clusters are served while the next
        // batch is written
        chain =
            chain.compose(
                v ->
                    store
                        .handOver(batch, session.member())
                        .map(
                            credentials -> {
                              credentials.forEach(
                                  (cluster, credential) ->
                                      session.assign(snapshot.targets().get(cluster), credential));
                              // what committed: a retired or unknown cluster of the plan gets no
                              // credential
                              if (!credentials.isEmpty()) {
                                LOG.info(
                                    "pool replica {}: {} clusters handed over",
                                    session.member(),
                                    credentials.size());
                              }
                              return null;
                            }));
      }
    }
    return chain;
  }

  Set<String> heldBy(String member) {
    return sessions.values().stream()
        .filter(s -> member.equals(s.member()))
        .findFirst()
        .map(PoolSession::held)
        .orElse(Set.of());
  }
}
