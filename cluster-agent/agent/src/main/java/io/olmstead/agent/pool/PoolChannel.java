package io.olmstead.agent.pool;

import io.olmstead.agent.channel.Backoff;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool replica's own connection to the control plane ({@code /api/v1/agent/pool}, pool token): says which
 * clusters it holds in {@code hello}, then takes {@code assign} (a hosted cluster and its agent credential) and
 * {@code release} messages and answers heartbeats. Reconnects with backoff; the hosted agents keep running meanwhile.
 * Credentials go from the message to the {@link HostedPool} and nowhere else (never a log).
 */
final class PoolChannel {
  private static final Logger LOG = LoggerFactory.getLogger(PoolChannel.class);

  private final Vertx vertx;
  private final Context context;
  private final WebSocketClient client;
  private final URI uri;
  private final String token;
  private final String replica;
  private final HostedPool pool;
  private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30));
  private WebSocket ws;
  private boolean stopped;
  private long heartbeatTimer = -1;
  private long lastHeardNanos;
  private volatile boolean welcomed;
  private volatile String lastProblem;

  PoolChannel(Vertx vertx, WebSocketClient client, URI controlPlane, String token, String replica, HostedPool pool) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.client = client;
    String scheme = "https".equalsIgnoreCase(controlPlane.getScheme()) ? "wss" : "ws";
    this.uri = URI.create(scheme + "://" + controlPlane.getAuthority() + "/api/v1/agent/pool");
    this.token = token;
    this.replica = replica;
    this.pool = pool;
  }

  void start() {
    context.runOnContext(v -> connect());
  }

  boolean welcomed() {
    return welcomed;
  }

  /** Readiness: empty while welcomed, else why not (the last close or connect failure; never the token). */
  java.util.Optional<String> problem() {
    if (welcomed) {
      return java.util.Optional.empty();
    }
    String last = lastProblem;
    return java.util.Optional.of("pool replica " + replica + " not connected to the control plane at " + uri
        + (last == null ? "" : " (" + last + ")"));
  }

  Future<Void> stop() {
    Promise<Void> done = Promise.promise();
    context.runOnContext(v -> {
      stopped = true;
      cancelHeartbeat();
      (ws == null ? Future.<Void>succeededFuture() : ws.close((short) 1000, "pool replica stopping")).onComplete(done);
    });
    return done.future();
  }

  private void connect() {
    if (stopped) {
      return;
    }
    client.connect(new WebSocketConnectOptions().setAbsoluteURI(uri.toString())
        .putHeader("Authorization", "Bearer " + token)).onComplete(ar -> {
          if (ar.failed()) {
            LOG.warn("pool channel: connect failed: {}", ar.cause().getMessage());
            lastProblem = "connect failed: " + ar.cause().getMessage();
            retry();
            return;
          }
          ws = ar.result();
          lastHeardNanos = System.nanoTime();
          ws.textMessageHandler(this::onText);
          ws.exceptionHandler(e -> LOG.debug("pool channel: {}", e.toString()));
          WebSocket socket = ws;
          ws.closeHandler(v -> closed(socket));
          ws.writeTextMessage(new JsonObject().put("type", "hello").put("replica", replica)
              .put("clusters", new JsonArray(pool.held().stream().sorted().toList())).encode());
        });
  }

  private void onText(String text) {
    lastHeardNanos = System.nanoTime();
    JsonObject message;
    try {
      message = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      LOG.warn("pool channel: ignoring a message that is not a JSON object");
      return;
    }
    switch (String.valueOf(message.getValue("type"))) {
      case "welcome" -> welcome(message.getInteger("assignSeconds", 5));
      case "assign" -> pool.assign(new HostedTarget(message.getString("cluster"), message.getString("namespace"),
          message.getString("name"), message.getString("controlPlaneNamespace")), message.getString("credential"));
      case "release" -> pool.release(message.getString("cluster"));
      case "heartbeat" -> { }
      default -> LOG.debug("pool channel: ignoring {}", message.getValue("type"));
    }
  }

  private void welcome(int assignSeconds) {
    welcomed = true;
    backoff.reset();
    LOG.info("pool replica {}: connected to the control plane", replica);
    cancelHeartbeat();
    long period = Math.max(1, assignSeconds) * 1000L;
    heartbeatTimer = vertx.setPeriodic(period, id -> context.runOnContext(v -> {
      if (ws == null) {
        return;
      }
      if (System.nanoTime() - lastHeardNanos > period * 3_000_000L + 5_000_000_000L) {
        ws.close((short) 4408, "control plane silent");
        return;
      }
      ws.writeTextMessage("{\"type\":\"heartbeat\"}");
    }));
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
