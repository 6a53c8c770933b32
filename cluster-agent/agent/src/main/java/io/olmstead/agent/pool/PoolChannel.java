package io.olmstead.agent.pool;

import io.olmstead.agent.channel.Backoff;
import io.olmstead.apispec.protocol.TickPauses;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool replica's own connection to the control plane ({@code /api/v1/agent/pool}, pool token):
 * says which clusters it holds in {@code hello}, then takes {@code assign} (a hosted cluster and
 * its agent credential) and {@code release} messages and answers heartbeats. Reconnects with
 * backoff; the hosted agents keep running meanwhile. Credentials go from the message to the {@link
 * HostedPool} and nowhere else (never a log).
 */
final class PoolChannel {
  private static final Logger LOG = LoggerFactory.getLogger(PoolChannel.class);

  private final Vertx vertx;
  private final Context context;
  private final WebSocketClient client;
  private final URI uri;
  private final String token;
  private final String replica;
  private final Served pool;
  private final LongSupplier nanos;
  private TickPauses pauses;
  private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));
  private WebSocket ws;
  private boolean stopped;
  private long heartbeatTimer = -1;
  private long lastHeardNanos;
  private volatile boolean welcomed;
  private volatile String lastProblem;

  /** What the channel hands its assignments to ({@link HostedPool}). */
  interface Served {
    Set<String> held();

    void assign(HostedTarget target, String credential);

    void release(String cluster);
  }

  /**
   * {@code nanos}: the clock the control plane's silence is measured on ({@code System::nanoTime}).
   */
  PoolChannel(
      Vertx vertx,
      WebSocketClient client,
      URI controlPlane,
      String token,
      String replica,
      Served pool,
      LongSupplier nanos) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.client = client;
    String scheme = "https".equalsIgnoreCase(controlPlane.getScheme()) ? "wss" : "ws";
    this.uri = URI.create(scheme + "://" + controlPlane.getAuthority() + "/api/v1/agent/pool");
    this.token = token;
    this.replica = replica;
    this.pool = pool;
    this.nanos = nanos;
  }

  void start() {
    context.runOnContext(v -> connect());
  }

  boolean welcomed() {
    return welcomed;
  }

  /**
   * Readiness: empty while welcomed, else why not (the last close or connect failure; never the
   * token).
   */
  Optional<String> problem() {
    if (welcomed) {
      return Optional.empty();
    }
    String last = lastProblem;
    return Optional.of(
        "pool replica "
            + replica
            + " not connected to the control plane at "
            + uri
            + (last == null ? "" : " (" + last + ")"));
  }

  Future<Void> stop() {
    Promise<Void> done = Promise.promise();
    context.runOnContext(
        v -> {
          stopped = true;
          cancelHeartbeat();
          (ws == null
                  ? Future.<Void>succeededFuture()
                  : ws.close((short) 1000, "pool replica stopping"))
              .onComplete(done);
        });
    return done.future();
  }

  private void connect() {
    if (stopped) {
      return;
    }
    client
        .connect(
            new WebSocketConnectOptions()
                .setAbsoluteURI(uri.toString())
                .putHeader("Authorization", "Bearer " + token))
        .onComplete(
            ar -> {
              if (ar.failed()) {
                LOG.warn("pool channel: connect failed: {}", ar.cause().getMessage());
                lastProblem = "connect failed: " + ar.cause().getMessage();
                retry();
                return;
              }
              ws = ar.result();
              lastHeardNanos = nanos.getAsLong();
              ws.textMessageHandler(this::onText);
              ws.exceptionHandler(e -> LOG.debug("pool channel: {}", e.toString()));
              WebSocket socket = ws;
              ws.closeHandler(v -> closed(socket));
              ws.writeTextMessage(
                  new JsonObject()
                      .put("type", "hello")
                      .put("replica", replica)
                      .put("clusters", new JsonArray(pool.held().stream().sorted().toList()))
                      .encode());
            });
  }

  private void onText(String text) {
    lastHeardNanos = nanos.getAsLong();
    JsonObject message;
    try {
      message = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      LOG.warn("pool channel: ignoring a message that is not a JSON object");
      return;
    }
    switch (String.valueOf(message.getValue("type"))) {
      case "welcome" -> welcome(message.getInteger("assignSeconds", 5));
      case "assign" ->
          pool.assign(
              new HostedTarget(
                  message.getString("cluster"),
                  message.getString("namespace"),
                  message.getString("name"),
                  message.getString("controlPlaneNamespace")),
              message.getString("credential"));
      case "release" -> pool.release(message.getString("cluster"));
      case "heartbeat" -> {}
      default -> LOG.debug("pool channel: ignoring {}", message.getValue("type"));
    }
  }

  private void welcome(int assignSeconds) {
    welcomed = true;
    backoff.reset();
    LOG.info("pool replica {}: connected to the control plane", replica);
    cancelHeartbeat();
    long period = Math.max(1, assignSeconds) * 1000L;
    pauses = new TickPauses(nanos.getAsLong());
    heartbeatTimer = vertx.setPeriodic(period, id -> context.runOnContext(v -> heartbeat(period)));
  }

  /**
   * Closes the connection when the control plane has been silent for three of its periods and five
   * seconds, else sends a heartbeat. A tick that comes late (this process was paused) closes
   * nothing and the pause is not counted as the control plane's silence ({@link TickPauses}): its
   * heartbeats were not read during it either.
   */
  private void heartbeat(long periodMillis) {
    if (ws == null) {
      return;
    }
    long now = nanos.getAsLong();
    long window = TimeUnit.MILLISECONDS.toNanos(periodMillis * 3 + 5_000);
    long late = pauses.tick(now, TimeUnit.MILLISECONDS.toNanos(periodMillis), window);
    if (late > 0) {
      LOG.warn(
          "pool channel: heartbeat {} ms late: this replica was paused; the control plane's deadline moved by as "
              + "much",
          TimeUnit.NANOSECONDS.toMillis(late));
    } else if (pauses.silence(now, lastHeardNanos) > window) {
      ws.close((short) 4408, "control plane silent");
      return;
    }
    ws.writeTextMessage("{\"type\":\"heartbeat\"}");
  }

  private void closed(WebSocket socket) {
    if (ws != socket) {
      return;
    }
    ws = null;
    welcomed = false;
    lastProblem = "last close: " + socket.closeStatusCode() + " " + socket.closeReason();
    cancelHeartbeat();
    LOG.info("pool channel closed ({} {})", socket.closeStatusCode(), socket.closeReason());
    retry();
  }

  private void retry() {
    if (!stopped) {
      vertx.setTimer(backoff.nextMillis(), id -> context.runOnContext(v -> connect()));
    }
  }

  private void cancelHeartbeat() {
    if (heartbeatTimer >= 0) {
      vertx.cancelTimer(heartbeatTimer);
      heartbeatTimer = -1;
    }
  }
}
