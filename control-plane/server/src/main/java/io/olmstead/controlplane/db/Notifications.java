package io.olmstead.controlplane.db;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's one PostgreSQL LISTEN connection: components subscribe to a channel (before {@link
 * #start()}) with a handler for each notification and a resync for each time the channel is
 * listened to again, since notifications sent while the connection was away are lost. The
 * connection reconnects by itself with a growing pause (at most {@link
 * #MAX_RECONNECT_PAUSE_MILLIS}), never giving up. It can also stop delivering without closing (its
 * backend stuck, a path that drops packets without a reset): every {@link #PING_MILLIS} it notifies
 * its own ping channel through the pool, and when a ping the database has taken has not come back
 * {@link #PING_MILLIS} later the connection is abandoned for a new one, whose subscriptions resync.
 * The wait counts from the moment the database took the ping, not from when it was queued: a pool
 * busy with other work delays the ping without saying anything about the LISTEN connection, and a
 * resync of every agent each time the pool is busy would only add to the load. A first connection
 * that fails is tried again at the next ping.
 */
public final class Notifications {
  /** How often the connection pings itself, and how long a ping may take to come back. */
  public static final long PING_MILLIS = 5000;

  static final long MAX_RECONNECT_PAUSE_MILLIS = 5000;
  static final String PING_CHANNEL = "olmstead_listen_ping";
  private static final String NOTIFY = "SELECT pg_notify($1, $2)";
  private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);

  private final Vertx vertx;
  private final PgConnectOptions options;
  private final Pool pool;
  private final Map<String, List<Subscription>> channels = new LinkedHashMap<>();
  // each replica's pings reach every replica: only this one's own are awaited
  private final String self = UUID.randomUUID() + ":";
  private final AtomicLong pings = new AtomicLong();
  private volatile PgSubscriber subscriber;
  private final LongSupplier nanos;
  private final long pingMillis;
  private volatile String awaited;
  // when the database took the awaited ping (System.nanoTime); 0 while the ping still waits for a
  // pool connection
  private volatile long awaitedSince;
  private volatile boolean started;
  private volatile boolean closing;
  private volatile boolean connectFailed;
  private long timer = -1;

  private record Subscription(Consumer<String> handler, Runnable onListening) {}

  public Notifications(Vertx vertx, PgConnectOptions options, Pool pool) {
    this(vertx, options, pool, PING_MILLIS, System::nanoTime);
  }

  Notifications(
      Vertx vertx, PgConnectOptions options, Pool pool, long pingMillis, LongSupplier nanos) {
    this.vertx = vertx;
    this.options = new PgConnectOptions(options);
    this.pool = pool;
    this.pingMillis = pingMillis;
    this.nanos = nanos;
  }

  /**
   * Delivers each notification on {@code channel} to {@code handler}, and runs {@code onListening}
   * each time the channel is listened to (the first connect and every reconnect): what was
   * announced in between was lost.
   */
  public void subscribe(String channel, Consumer<String> handler, Runnable onListening) {
    if (started) {
      throw new IllegalStateException(
          "subscribe to " + channel + " before the notifications start");
    }
    channels
        .computeIfAbsent(channel, c -> new ArrayList<>())
        .add(new Subscription(handler, onListening));
  }

  /**
   * As {@link #subscribe(String, Consumer, Runnable)}, for a subscriber that has nothing to resync.
   */
  public void subscribe(String channel, Consumer<String> handler) {
    subscribe(channel, handler, () -> {});
  }

  /** Connects and starts pinging; a failed first connect is tried again at the next ping. */
  public Future<Void> start() {
    started = true;
    subscriber = subscriber();
    timer = vertx.setPeriodic(pingMillis, id -> checkAndPing());
    return subscriber.connect().onFailure(e -> connectFailed = true);
  }

  public Future<Void> close() {
    closing = true;
    vertx.cancelTimer(timer);
    return subscriber == null ? Future.succeededFuture() : subscriber.close();
  }

  private PgSubscriber subscriber() {
    PgSubscriber created =
        PgSubscriber.subscriber(vertx, new PgConnectOptions(options))
            .reconnectPolicy(retries -> Math.min(MAX_RECONNECT_PAUSE_MILLIS, 100L * (retries + 1)));
    created
        .channel(PING_CHANNEL)
        .subscribeHandler(
            v -> {
              // on every (re)connect: without a handler the client prints connection errors to
              // stderr
              created
                  .actualConnection()
                  .exceptionHandler(e -> LOG.debug("notifications: {}", e.toString()));
              awaited = null;
            })
        .handler(this::pong);
    channels.forEach(
        (channel, subscriptions) ->
            created
                .channel(channel)
                .subscribeHandler(v -> subscriptions.forEach(s -> s.onListening().run()))
                .handler(payload -> subscriptions.forEach(s -> s.handler().accept(payload))));
    created.closeHandler(
        v -> {
          if (!closing && created == subscriber) {
            LOG.warn("notifications stopped; listening on a new connection at the next ping");
            connectFailed = true;
          }
        });
    return created;
  }

  // A ping the database took and that did not come back: the connection delivers nothing, though it
  // may look open for
  // minutes (closing it politely waits on the dead peer), so a new subscriber takes over and its
  // connect resyncs. A
  // ping still waiting for a pool connection, or one that could not be sent (the database
  // unreachable), proves
  // nothing either way.
  private void checkAndPing() {
    if (closing) {
      return;
    }
    if (connectFailed) {
      LOG.info("notifications: connecting again");
      replace();
      return;
    }
    if (subscriber.actualConnection() == null) {
      return;
    }
    if (awaited != null) {
      long since = awaitedSince;
      if (since != 0 && nanos.getAsLong() - since >= TimeUnit.MILLISECONDS.toNanos(pingMillis)) {
        LOG.warn(
            "notifications: own ping not back within {} ms; listening on a new connection",
            pingMillis);
        replace();
      }
      return;
    }
    String payload = self + pings.incrementAndGet();
    awaitedSince = 0;
    awaited = payload;
    pool.preparedQuery(NOTIFY)
        .execute(Tuple.of(PING_CHANNEL, payload))
        .onComplete(
            done -> {
              if (!payload.equals(awaited)) {
                return;
              }
              if (done.succeeded()) {
                awaitedSince = nanos.getAsLong();
              } else {
                awaited = null;
                LOG.debug("notifications: ping not sent: {}", done.cause().toString());
              }
            });
  }

  private void replace() {
    awaited = null;
    awaitedSince = 0;
    connectFailed = false;
    PgSubscriber dead = subscriber;
    subscriber = subscriber();
    dead.close();
    subscriber
        .connect()
        .onFailure(
            e -> {
              connectFailed = true;
              LOG.warn("notifications: connect failed: {}", e.toString());
            });
  }

  private void pong(String payload) {
    if (payload != null && payload.equals(awaited)) {
      awaited = null;
    }
  }
}
