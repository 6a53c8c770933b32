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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's one PostgreSQL LISTEN connection: components subscribe to a channel (before {@link #start()}) with a
 * handler for each notification and a resync for each time the channel is listened to again, since notifications
 * sent while the connection was away are lost. The connection reconnects by itself with a growing pause (at most
 * {@link #MAX_RECONNECT_PAUSE_MILLIS}), never giving up. It can also stop delivering without closing (its backend
 * stuck, a path that drops packets without a reset): every {@link #PING_MILLIS} it notifies its own ping channel
 * through the pool, and when that ping has not come back by the next one the connection is abandoned for a new one,
 * whose subscriptions resync. A first connection that fails is tried again at the next ping.
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
  private volatile String awaited;
  private volatile boolean started;
  private volatile boolean closing;
  private volatile boolean connectFailed;
  private long timer = -1;

  private record Subscription(Consumer<String> handler, Runnable onListening) {
  }

  public Notifications(Vertx vertx, PgConnectOptions options, Pool pool) {
    this.vertx = vertx;
    this.options = new PgConnectOptions(options);
    this.pool = pool;
  }

  /**
   * Delivers each notification on {@code channel} to {@code handler}, and runs {@code onListening} each time the
   * channel is listened to (the first connect and every reconnect): what was announced in between was lost.
   */
  public void subscribe(String channel, Consumer<String> handler, Runnable onListening) {
    if (started) {
      throw new IllegalStateException("subscribe to " + channel + " before the notifications start");
    }
    channels.computeIfAbsent(channel, c -> new ArrayList<>()).add(new Subscription(handler, onListening));
  }

  /** As {@link #subscribe(String, Consumer, Runnable)}, for a subscriber that has nothing to resync. */
  public void subscribe(String channel, Consumer<String> handler) {
    subscribe(channel, handler, () -> { });
  }

  /** Connects and starts pinging; a failed first connect is tried again at the next ping. */
  public Future<Void> start() {
    started = true;
    subscriber = subscriber();
    timer = vertx.setPeriodic(PING_MILLIS, id -> checkAndPing());
    return subscriber.connect().onFailure(e -> connectFailed = true);
  }

  public Future<Void> close() {
    closing = true;
    vertx.cancelTimer(timer);
    return subscriber == null ? Future.succeededFuture() : subscriber.close();
  }

  private PgSubscriber subscriber() {
    PgSubscriber created = PgSubscriber.subscriber(vertx, new PgConnectOptions(options))
        .reconnectPolicy(retries -> Math.min(MAX_RECONNECT_PAUSE_MILLIS, 100L * (retries + 1)));
    created.channel(PING_CHANNEL)
        .subscribeHandler(v -> {
          // on every (re)connect: without a handler the client prints connection errors to stderr
          created.actualConnection().exceptionHandler(e -> LOG.debug("notifications: {}", e.toString()));
          awaited = null;
        })
        .handler(this::pong);
    channels.forEach((channel, subscriptions) -> created.channel(channel)
        .subscribeHandler(v -> subscriptions.forEach(s -> s.onListening().run()))
        .handler(payload -> subscriptions.forEach(s -> s.handler().accept(payload))));
    created.closeHandler(v -> {
      if (!closing && created == subscriber) {
        LOG.warn("notifications stopped; listening on a new connection at the next ping");
        connectFailed = true;
      }
    });
    return created;
  }

  // The previous ping not back: the connection delivers nothing, though it may look open for minutes (closing it
  // politely waits on the dead peer), so a new subscriber takes over and its connect resyncs. A ping that could not be
  // sent (the database unreachable) proves nothing either way.
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
      LOG.warn("notifications: own ping not back within {} ms; listening on a new connection", PING_MILLIS);
      replace();
      return;
    }
    String payload = self + pings.incrementAndGet();
    awaited = payload;
    pool.preparedQuery(NOTIFY).execute(Tuple.of(PING_CHANNEL, payload)).onFailure(e -> {
      if (payload.equals(awaited)) {
        awaited = null;
      }
      LOG.debug("notifications: ping not sent: {}", e.toString());
    });
  }

  private void replace() {
    awaited = null;
    connectFailed = false;
    PgSubscriber dead = subscriber;
    subscriber = subscriber();
    dead.close();
    subscriber.connect().onFailure(e -> {
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
