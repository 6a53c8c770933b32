package io.olmstead.controlplane.agentgateway;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on {@code olmstead_agent_changes} (notifications from the V4 triggers carry {@code kind:id} only) on a
 * dedicated connection that reconnects by itself; after every (re)connect the gateway resyncs, since notifications
 * sent while it was away are lost. A connection can also stop delivering without closing (its backend stuck, a path
 * that drops packets without a reset): every {@link #PING_MILLIS} the listener notifies its own channel through the
 * pool, and when that ping has not come back by the next one the connection is abandoned for a new one, which resyncs.
 */
final class ChangeListener {
  static final String CHANNEL = "olmstead_agent_changes";
  /** How often the listener pings itself, and how long a ping may take to come back. */
  static final long PING_MILLIS = 5000;
  private static final String PING_KIND = "ping:";
  private static final String NOTIFY = "SELECT pg_notify($1, $2)";
  private static final Logger LOG = LoggerFactory.getLogger(ChangeListener.class);

  private final Vertx vertx;
  private final PgConnectOptions options;
  private final Pool pool;
  private final Consumer<Change> onChange;
  private final Runnable onConnected;
  private final String self = PING_KIND + UUID.randomUUID();
  private final AtomicLong pings = new AtomicLong();
  private volatile PgSubscriber subscriber;
  private volatile String awaited;
  private volatile boolean closing;
  private long timer = -1;

  ChangeListener(Vertx vertx, PgConnectOptions options, Pool pool, Consumer<Change> onChange, Runnable onConnected) {
    this.vertx = vertx;
    this.options = new PgConnectOptions(options);
    this.pool = pool;
    this.onChange = onChange;
    this.onConnected = onConnected;
    this.subscriber = subscriber();
  }

  Future<Void> start() {
    timer = vertx.setPeriodic(PING_MILLIS, id -> checkAndPing());
    return subscriber.connect();
  }

  Future<Void> close() {
    closing = true;
    vertx.cancelTimer(timer);
    return subscriber.close();
  }

  private PgSubscriber subscriber() {
    PgSubscriber created = PgSubscriber.subscriber(vertx, new PgConnectOptions(options))
        .reconnectPolicy(retries -> retries < 1000 ? Math.min(5000L, 100L * (retries + 1)) : -1L);
    created.channel(CHANNEL)
        .subscribeHandler(v -> {
          // on every (re)connect: without a handler the client prints connection errors to stderr
          created.actualConnection().exceptionHandler(e -> LOG.debug("change notifications: {}", e.toString()));
          awaited = null;
          onConnected.run();
        })
        .handler(payload -> {
          if (payload != null && payload.startsWith(PING_KIND)) {
            pong(payload);
          } else {
            Change.parse(payload).ifPresent(onChange);
          }
        });
    created.closeHandler(v -> {
      if (!closing && created == subscriber) {
        LOG.warn("change notifications stopped; relying on periodic resync");
      }
    });
    return created;
  }

  // The previous ping not back: the connection delivers nothing, though it may look open for minutes (closing it
  // politely waits on the dead peer), so a new subscriber takes over and its connect resyncs. A ping that could not be
  // sent (the database unreachable) proves nothing either way.
  private void checkAndPing() {
    if (closing || subscriber.actualConnection() == null) {
      return;
    }
    if (awaited != null) {
      LOG.warn("change notifications: own ping not back within {} ms; listening on a new connection", PING_MILLIS);
      awaited = null;
      PgSubscriber dead = subscriber;
      subscriber = subscriber();
      dead.close();
      subscriber.connect().onFailure(e -> LOG.warn("change notifications: reconnect failed: {}", e.toString()));
      return;
    }
    String payload = self + ":" + pings.incrementAndGet();
    awaited = payload;
    pool.preparedQuery(NOTIFY).execute(Tuple.of(CHANNEL, payload)).onFailure(e -> {
      if (payload.equals(awaited)) {
        awaited = null;
      }
      LOG.debug("change notifications: ping not sent: {}", e.toString());
    });
  }

  // Other replicas' pings arrive here too and are ignored.
  private void pong(String payload) {
    if (payload.equals(awaited)) {
      awaited = null;
    }
  }

  /** One notification: what kind of row changed and its id. */
  record Change(String kind, String id) {
    static Optional<Change> parse(String payload) {
      int colon = payload == null ? -1 : payload.indexOf(':');
      return colon <= 0 ? Optional.empty()
          : Optional.of(new Change(payload.substring(0, colon), payload.substring(colon + 1)));
    }
  }
}
