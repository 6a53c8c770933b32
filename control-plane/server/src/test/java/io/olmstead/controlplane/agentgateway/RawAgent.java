package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.Welcome;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A hand-driven agent connection for protocol-level tests: sends raw text, records messages and the
 * close frame.
 */
final class RawAgent implements AutoCloseable {
  final BlockingQueue<AgentMessage> received = new LinkedBlockingQueue<>();
  final CompletableFuture<Integer> closeCode = new CompletableFuture<>();
  volatile String closeReason;
  private final WebSocketClient client;
  private final WebSocket ws;

  private RawAgent(WebSocketClient client, WebSocket ws) {
    this.client = client;
    this.ws = ws;
    ws.textMessageHandler(
        text -> {
          try {
            received.add(ProtocolCodec.decode(text));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    ws.closeHandler(
        v -> {
          closeReason = ws.closeReason();
          closeCode.complete(ws.closeStatusCode() == null ? 1006 : (int) ws.closeStatusCode());
        });
  }

  static RawAgent connect(Vertx vertx, int port, String credential) throws Exception {
    WebSocketClient client =
        vertx.createWebSocketClient(
            new WebSocketClientOptions().setMaxMessageSize(16 * 1024 * 1024));
    WebSocket ws =
        client
            .connect(
                new WebSocketConnectOptions()
                    .setHost("127.0.0.1")
                    .setPort(port)
                    .setURI("/api/v1/agent/connect")
                    .putHeader("Authorization", "Bearer " + credential))
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    return new RawAgent(client, ws);
  }

  /** Sends hello and returns the welcome. */
  Welcome handshake() throws Exception {
    sendMessage(
        new Hello(1, null, "test", List.of(1), new Facts("v1.30.0", null, 1, "hollow"), null));
    return next(Welcome.class);
  }

  void sendMessage(AgentMessage message) {
    send(ProtocolCodec.encode(message));
  }

  void send(String text) {
    ws.writeTextMessage(text);
  }

  void sendFrame(Buffer payload) {
    ws.writeFrame(io.vertx.core.http.WebSocketFrame.textFrame(payload.toString(), true));
  }

  /** The next message of the given type (others are skipped), waiting up to 10 s. */
  <T extends AgentMessage> T next(Class<T> type) throws InterruptedException {
    return next(type, Duration.ofSeconds(10));
  }

  /** The next message of the given type (others are skipped), waiting up to {@code within}. */
  <T extends AgentMessage> T next(Class<T> type, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      AgentMessage m = received.poll(100, TimeUnit.MILLISECONDS);
      if (type.isInstance(m)) {
        return type.cast(m);
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " within " + within);
  }

  int awaitClose() throws Exception {
    return closeCode.get(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    ws.close();
    client.close();
  }
}
