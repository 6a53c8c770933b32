package io.olmstead.controlplane.hypershift.pool;

import io.vertx.core.Context;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * One pool replica's connection: its name (from {@code hello}), the hosted clusters handed to it
 * over this connection, and the messages of the pool channel. Credentials go out in {@code assign}
 * messages only, never to a log.
 */
final class PoolSession {
  static final int MAX_MESSAGE_CHARS = 256 * 1024;
  static final int MAX_HELD = 10_000;
  private static final String NAME = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?";

  private final ServerWebSocket ws;
  private final Context context;
  private final UUID tokenId;
  private final String id = UUID.randomUUID().toString();
  private final Set<String> held = ConcurrentHashMap.newKeySet();
  private volatile String member;
  private final Clock clock;
  private volatile long lastHeardMillis;

  PoolSession(ServerWebSocket ws, Context context, UUID tokenId, Clock clock) {
    this.ws = ws;
    this.clock = clock;
    this.lastHeardMillis = clock.millis();
    this.context = context;
    this.tokenId = tokenId;
  }

  /**
   * Reads messages: {@code onHello} once with the replica's name, heartbeats keep it alive,
   * anything else closes.
   */
  void start(Consumer<PoolSession> onHello, Runnable onClose) {
    ws.closeHandler(v -> onClose.run());
    ws.exceptionHandler(e -> {});
    ws.textMessageHandler(
        text -> {
          lastHeardMillis = clock.millis();
          JsonObject message = parse(text);
          if (message == null) {
            return;
          }
          String type = message.getValue("type") instanceof String s ? s : "";
          if ("heartbeat".equals(type)) {
            return;
          }
          if (!"hello".equals(type) || member != null) {
            close(4400, "unexpected message");
            return;
          }
          String replica = message.getValue("replica") instanceof String s ? s : "";
          JsonArray clusters =
              message.getValue("clusters") instanceof JsonArray a ? a : new JsonArray();
          if (!replica.matches(NAME) || clusters.size() > MAX_HELD) {
            close(4400, "hello needs replica (a DNS label) and at most " + MAX_HELD + " clusters");
            return;
          }
          clusters.forEach(
              c -> {
                if (c instanceof String name && name.matches(NAME)) {
                  held.add(name);
                }
              });
          member = replica;
          onHello.accept(this);
        });
  }

  private JsonObject parse(String text) {
    if (text.length() > MAX_MESSAGE_CHARS) {
      close(1009, "message too big");
      return null;
    }
    try {
      return new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      close(4400, "not a JSON object");
      return null;
    }
  }

  void welcome(int assignSeconds) {
    send(new JsonObject().put("type", "welcome").put("assignSeconds", assignSeconds));
  }

  void assign(PoolStore.Target target, String credential) {
    held.add(target.cluster());
    send(target.toJson().put("type", "assign").put("credential", credential));
  }

  void release(String cluster) {
    held.remove(cluster);
    send(new JsonObject().put("type", "release").put("cluster", cluster));
  }

  void heartbeat() {
    send(new JsonObject().put("type", "heartbeat"));
  }

  void close(int code, String reason) {
    context.runOnContext(
        v -> {
          if (!ws.isClosed()) {
            ws.close((short) code, reason);
          }
        });
  }

  private void send(JsonObject message) {
    String text = message.encode();
    context.runOnContext(
        v -> {
          if (!ws.isClosed()) {
            ws.writeTextMessage(text);
          }
        });
  }

  String id() {
    return id;
  }

  String member() {
    return member;
  }

  UUID tokenId() {
    return tokenId;
  }

  Set<String> held() {
    return Set.copyOf(held);
  }

  long lastHeardMillis() {
    return lastHeardMillis;
  }
}
