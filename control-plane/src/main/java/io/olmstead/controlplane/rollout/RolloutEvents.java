package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.pubsub.PgSubscriber;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event stream behind {@code GET /events}: cluster, subscription and rollout changes from any replica, announced
 * by the V8 triggers on {@value #CHANNEL} with the teams they concern. Each client gets only the events of what it may
 * see: a team-scoped token those of its teams, a token without a team scope all of them. Events carry ids; clients
 * re-read what they show. A client that cannot keep up (more than {@link #MAX_BUFFERED_BYTES} unwritten) is
 * disconnected rather than buffered without bound.
 */
public final class RolloutEvents {
  static final String CHANNEL = "olmstead_events";
  static final long MAX_BUFFERED_BYTES = 256 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(RolloutEvents.class);

  private final Vertx vertx;
  private final PgSubscriber subscriber;
  private final Map<HttpServerResponse, Principal> clients = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();

  public RolloutEvents(Vertx vertx, PgConnectOptions options) {
    this.vertx = vertx;
    this.subscriber = PgSubscriber.subscriber(vertx, new PgConnectOptions(options))
        .reconnectPolicy(retries -> Math.min(5000L, 100L * (retries + 1)));
    subscriber.channel(CHANNEL).handler(this::notified)
        // on every (re)connect: without a handler the client prints connection errors to stderr
        .subscribeHandler(v -> subscriber.actualConnection().exceptionHandler(e -> LOG.debug("event notifications: {}",
            e.toString())));
  }

  public Future<Void> start() {
    return subscriber.connect();
  }

  public Future<Void> close() {
    clients.keySet().forEach(HttpServerResponse::end);
    return subscriber.close();
  }

  private void notified(String payload) {
    JsonObject event;
    try {
      event = new JsonObject(payload);
    } catch (RuntimeException e) {
      LOG.warn("ignoring a malformed event notification");
      return;
    }
    JsonArray teams = event.getJsonArray("teams", new JsonArray());
    emit(new JsonObject().put("type", event.getString("type")).put("id", event.getString("id")),
        teams.stream().map(String::valueOf).toList());
  }

  /** Streams the events {@code caller} may see to this response until the client goes away. */
  public void follow(HttpServerResponse response, Principal caller) {
    response.setWriteQueueMaxSize((int) MAX_BUFFERED_BYTES);
    response.setChunked(true).putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no");
    response.write(": connected\n\n");
    clients.put(response, caller);
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

  /** Sends {@code event} to every client that may see one of {@code teams} (an event of no team: unscoped ones). */
  void emit(JsonObject event, List<String> teams) {
    String frame = "id: " + sequence.incrementAndGet() + "\nevent: " + event.getString("type") + "\ndata: "
        + event.encode() + "\n\n";
    clients.forEach((client, caller) -> {
      if (!caller.teamScoped() || teams.stream().anyMatch(caller::mayAccessTeam)) {
        send(client, frame);
      }
    });
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
