package io.olmstead.controlplane.agentgateway;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listens on {@code olmstead_agent_changes} (notifications from the V4 triggers carry {@code kind:id} only) on a
 * dedicated connection that reconnects by itself; after every (re)connect the gateway resyncs, since notifications
 * sent while it was away are lost.
 */
final class ChangeListener {
  static final String CHANNEL = "olmstead_agent_changes";
  private static final Logger LOG = LoggerFactory.getLogger(ChangeListener.class);

  private final PgSubscriber subscriber;
  private volatile boolean closing;

  ChangeListener(Vertx vertx, PgConnectOptions options, Consumer<Change> onChange, Runnable onConnected) {
    this.subscriber = PgSubscriber.subscriber(vertx, new PgConnectOptions(options))
        .reconnectPolicy(retries -> retries < 1000 ? Math.min(5000L, 100L * (retries + 1)) : -1L);
    subscriber.channel(CHANNEL)
        .subscribeHandler(v -> {
          // on every (re)connect: without a handler the client prints connection errors to stderr
          subscriber.actualConnection().exceptionHandler(e -> LOG.debug("change notifications: {}", e.toString()));
          onConnected.run();
        })
        .handler(payload -> Change.parse(payload).ifPresent(onChange));
    subscriber.closeHandler(v -> {
      if (!closing) {
        LOG.warn("change notifications stopped; relying on periodic resync");
      }
    });
  }

  Future<Void> start() {
    return subscriber.connect();
  }

  Future<Void> close() {
    closing = true;
    return subscriber.close();
  }

  /** One notification: what kind of row changed and its id. */
  record Change(String kind, String id) {
    static java.util.Optional<Change> parse(String payload) {
      int colon = payload == null ? -1 : payload.indexOf(':');
      return colon <= 0 ? java.util.Optional.empty()
          : java.util.Optional.of(new Change(payload.substring(0, colon), payload.substring(colon + 1)));
    }
  }
}
