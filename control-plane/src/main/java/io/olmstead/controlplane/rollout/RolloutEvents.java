package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.clusters.ClusterStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event stream behind {@code GET /events}: rollout changes (from any replica, by NOTIFY on
 * {@code olmstead_rollout_changes}) and cluster and subscription changes (the agent gateway's
 * {@code olmstead_agent_changes}, and {@code olmstead_cluster_changed} for enrolled and deleted clusters). Events carry ids; clients re-read what they show. A client that cannot keep up
 * (more than {@link #MAX_BUFFERED_BYTES} unwritten) is disconnected rather than buffered without bound.
 */
public final class RolloutEvents {
  static final String ROLLOUT_CHANNEL = "olmstead_rollout_changes";
  static final long MAX_BUFFERED_BYTES = 256 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(RolloutEvents.class);

  private final Vertx vertx;
  private final PgSubscriber subscriber;
  private final Set<HttpServerResponse> clients = new CopyOnWriteArraySet<>();
  private final AtomicLong sequence = new AtomicLong();

  public RolloutEvents(Vertx vertx, PgConnectOptions options) {
    this.vertx = vertx;
    this.subscriber = PgSubscriber.subscriber(vertx, new PgConnectOptions(options))
        .reconnectPolicy(retries -> Math.min(5000L, 100L * (retries + 1)));
    subscriber.channel(ROLLOUT_CHANNEL).handler(id -> emit(new JsonObject().put("type", "rollout").put("id", id)))
        // on every (re)connect: without a handler the client prints connection errors to stderr
        .subscribeHandler(v -> subscriber.actualConnection().exceptionHandler(e -> LOG.debug("event notifications: {}",
            e.toString())));
    subscriber.channel("olmstead_agent_changes").handler(this::agentChange);
    // enrolled or deleted clusters (ClusterStore and enrollment announce them at commit)
    subscriber.channel(ClusterStore.CHANGED_CHANNEL).handler(name -> emit(new JsonObject().put("type", "cluster")
        .put("id", name)));
  }

  public Future<Void> start() {
    return subscriber.connect();
  }

  public Future<Void> close() {
    clients.forEach(c -> c.end());
    return subscriber.close();
  }

  private void agentChange(String payload) {
    int colon = payload == null ? -1 : payload.indexOf(':');
    if (colon <= 0) {
      return;
    }
    String kind = payload.substring(0, colon);
    if (kind.equals("cluster") || kind.equals("subscription")) {
      emit(new JsonObject().put("type", kind).put("id", payload.substring(colon + 1)));
    }
  }

  /** Streams events to this response until the client goes away. */
  public void follow(HttpServerResponse response) {
    response.setWriteQueueMaxSize((int) MAX_BUFFERED_BYTES);
    response.setChunked(true).putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    response.write(": connected\n\n");
    clients.add(response);
    long ping = vertx.setPeriodic(15_000, id -> send(response, ": ping\n\n"));
    response.closeHandler(v -> {
      clients.remove(response);
      vertx.cancelTimer(ping);
    });
    response.exceptionHandler(e -> clients.remove(response));
  }

  public int clients() {
    return clients.size();
  }

  void emit(JsonObject event) {
    String frame = "id: " + sequence.incrementAndGet() + "\nevent: " + event.getString("type") + "\ndata: "
        + event.encode() + "\n\n";
    clients.forEach(c -> send(c, frame));
  }

  private void send(HttpServerResponse response, String frame) {
    if (response.closed() || response.ended()) {
      clients.remove(response);
      return;
    }
    // writeQueueFull: the per-connection buffer (MAX_BUFFERED_BYTES) is spent; drop the slow client
    if (response.writeQueueFull()) {
      clients.remove(response);
      response.reset();
      return;
    }
    response.write(frame);
  }
}
