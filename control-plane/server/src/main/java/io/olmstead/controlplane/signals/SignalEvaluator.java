package io.olmstead.controlplane.signals;

import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.config.SignalSettings;
import io.olmstead.controlplane.db.LeaderLock;
import io.olmstead.controlplane.subscription.CatalogView;
import io.olmstead.controlplane.subscription.CatalogViews;
import io.olmstead.controlplane.subscription.Subscription;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.olmstead.olmcore.fbc.Deprecation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evaluates the subscription signals and the cluster disconnections on the replica holding its
 * advisory lock, every {@link SignalSettings#interval()}: at most {@link #PER_PASS} subscriptions
 * per pass (the next pass goes on where this one stopped), each in one transaction that stores its
 * signals and queues the webhook events of what changed.
 */
public final class SignalEvaluator {
  static final long LOCK_KEY = 0x6f6c6d737369676eL;
  static final int PER_PASS = 200;
  private static final Logger LOG = LoggerFactory.getLogger(SignalEvaluator.class);

  private final Vertx vertx;
  private final Pool pool;
  private final SignalSettings settings;
  private final SignalStore store = new SignalStore();
  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final SignalMetrics metrics;
  private final Disconnections disconnections;
  private final LeaderLock lock;
  private final Set<String> seenThisRound = new HashSet<>();
  private String cursor;
  private boolean running;
  private long timer = -1;
  private volatile long completedPasses;

  public SignalEvaluator(
      Vertx vertx,
      Pool pool,
      PgConnectOptions connectOptions,
      MeterRegistry registry,
      SignalSettings settings) {
    this.vertx = vertx;
    this.pool = pool;
    this.settings = settings;
    this.metrics = new SignalMetrics(registry);
    this.lock =
        new LeaderLock(
            vertx,
            connectOptions,
            LOCK_KEY,
            "signal evaluator",
            held -> {
              if (!held) {
                metrics.clear(); // only the evaluating replica exports the gauges
              }
            });
    this.disconnections = new Disconnections(pool, settings.disconnectedAfter(), lock::fence);
  }

  public Future<Void> start() {
    timer = vertx.setPeriodic(settings.interval().toMillis(), id -> tick());
    return Future.succeededFuture();
  }

  public Future<Void> close() {
    vertx.cancelTimer(timer);
    return lock.release();
  }

  private void tick() {
    if (running) {
      return;
    }
    running = true;
    lock.ensure()
        .compose(leader -> leader ? pass() : Future.<Void>succeededFuture())
        .onComplete(
            ar -> {
              running = false;
              if (ar.succeeded()) {
                completedPasses++; // only this timer's context writes it
              } else {
                LOG.warn("signal evaluation failed: {}", ar.cause().toString());
              }
            });
  }

  /**
   * Ticks that ended without failure (a pass as leader, or a tick as follower): tests await
   * evaluations with it.
   */
  public long completedPasses() {
    return completedPasses;
  }

  /** One bounded pass: the next page of subscriptions, then the disconnections. */
  Future<Void> pass() {
    return pool.withConnection(conn -> subscriptions.list(conn, cursor, null, PER_PASS))
        .compose(
            page -> {
              Future<Void> chain = Future.succeededFuture();
              for (Subscription s : page) {
                chain =
                    chain.compose(
                        v ->
                            evaluate(s.spec())
                                .recover(
                                    e -> {
                                      LOG.warn(
                                          "signals of subscription {} not evaluated: {}",
                                          s.spec().name(),
                                          e.toString());
                                      return Future.succeededFuture();
                                    }));
              }
              return chain.onSuccess(
                  v -> {
                    page.forEach(s -> seenThisRound.add(s.spec().name()));
                    if (page.size() < PER_PASS) {
                      metrics.retain(
                          seenThisRound); // a full round: subscriptions not seen were deleted
                      seenThisRound.clear();
                      cursor = null;
                    } else {
                      cursor = page.get(page.size() - 1).spec().name();
                    }
                  });
            })
        .compose(v -> disconnections.pass())
        .mapEmpty();
  }

  /** Computes, stores and announces one subscription's signals in one transaction. */
  Future<Void> evaluate(SubscriptionSpec spec) {
    // fenced: a replica deposed without its knowing writes no signal and announces nothing, and
    // steps down
    return pool.withTransaction(
        tx ->
            lock.fence(tx)
                .compose(f -> CatalogViews.forPackage(tx, spec.catalog(), spec.packageName()))
                .compose(
                    view -> {
                      Future<Signals.Input> input = input(tx, spec, view);
                      Future<Optional<JsonObject>> previous = store.previous(tx, spec.name());
                      return Future.all(input, previous)
                          .map(all -> Signals.compute(input.result()))
                          .compose(
                              signals ->
                                  saveAndAnnounce(
                                      tx, spec, previous.result().orElse(null), signals));
                    }));
  }

  /** The subscription's reads are independent: sent together on the transaction's connection. */
  private Future<Signals.Input> input(
      SqlConnection tx, SubscriptionSpec spec, Optional<CatalogView> view) {
    Optional<CatalogView.PackageView> pkg = view.flatMap(v -> v.pkg(spec.packageName()));
    CatalogView.ChannelView channel = pkg.flatMap(p -> p.channel(spec.channel())).orElse(null);
    List<String> channels = pkg.map(p -> List.copyOf(p.channels().keySet())).orElse(List.of());
    Future<List<Deprecation.Entry>> deprecations =
        store.deprecations(tx, spec.catalog(), spec.packageName());
    Future<List<Signals.Installed>> installed = store.installed(tx, spec);
    Future<List<String>> stuck = store.stuck(tx, spec, settings.stuckAfter(), Signals.MAX_NAMES);
    Future<Long> stuckCount = store.stuckCount(tx, spec, settings.stuckAfter());
    return Future.all(deprecations, installed, stuck, stuckCount)
        .map(
            all ->
                new Signals.Input(
                    spec.packageName(),
                    channel,
                    channels,
                    spec.version(),
                    deprecations.result(),
                    installed.result(),
                    stuck.result(),
                    stuckCount.result(),
                    settings.stuckAfter()));
  }

  private Future<Void> saveAndAnnounce(
      SqlConnection tx, SubscriptionSpec spec, JsonObject previous, JsonObject signals) {
    metrics.observe(spec.name(), signals);
    Future<Void> chain = store.save(tx, spec, signals);
    for (SignalEvents.Event e : SignalEvents.changes(previous, signals)) {
      JsonObject data = e.data().put("subscription", spec.name()).put("team", spec.team());
      chain =
          chain.compose(
              v ->
                  SignalStore.enqueue(
                      tx,
                      e.type(),
                      spec.team(),
                      spec.name(),
                      CloudEvents.event(
                          e.type(), "/api/v1/subscriptions/" + spec.name(), spec.name(), data)));
    }
    return chain;
  }
}
