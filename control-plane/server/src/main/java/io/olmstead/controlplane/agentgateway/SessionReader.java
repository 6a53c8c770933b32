package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.ProtocolException;
import io.olmstead.controlplane.config.GatewaySettings;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The inbound side of one agent connection, from frames to a decoded message: reassembles frames
 * within the frame and message limits, rate-limits whole messages, decodes and validates each
 * against its schema (big ones on the gateway's decode workers, the socket paused meanwhile so that
 * messages keep their order) and hands it to its {@link AgentSession}, which owns what a message
 * means. It also owns when the agent was last heard, which the presence tick reads from its own
 * thread (hence volatile); the rest is touched only on the session's event-loop context. Kept apart
 * from the session so that the limits a hostile agent meets first are in one short place.
 */
final class SessionReader {
  // Logs under the session's name, as it did before this class was split out of it: the log lines
  // stay the same.
  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);

  private final AgentSession session;
  private final ServerWebSocket ws;
  private final WorkerExecutor decoder;
  private final int messagesPerSecond;
  private final TokenBucket bucket;
  private final FrameAssembler frames;

  private volatile long lastHeardNanos = System.nanoTime();
  private final AtomicBoolean heardSinceFlush = new AtomicBoolean(true);

  SessionReader(
      AgentSession session, ServerWebSocket ws, WorkerExecutor decoder, GatewaySettings settings) {
    this.session = session;
    this.ws = ws;
    this.decoder = decoder;
    this.messagesPerSecond = settings.messagesPerSecond();
    this.frames = new FrameAssembler(settings.maxFrameBytes(), settings.maxMessageBytes());
    this.bucket =
        new TokenBucket(settings.messagesPerSecond(), settings.burst(), System.nanoTime());
  }

  /** The socket's frame handler. */
  void onFrame(WebSocketFrame frame) {
    if (session.isClosed()) {
      return;
    }
    Buffer message;
    try {
      message = frames.accept(frame);
    } catch (ProtocolException e) {
      session.close(e.reason(), e.getMessage());
      return;
    }
    if (message != null) {
      onMessage(message);
    }
  }

  private void onMessage(Buffer data) {
    long now = System.nanoTime();
    lastHeardNanos = now;
    heardSinceFlush.set(true);
    if (!bucket.tryTake(now)) {
      session.close(CloseReason.RATE_LIMITED, "over " + messagesPerSecond + " messages/s");
      return;
    }
    boolean big = FrameAssembler.big(data);
    if (big) {
      ws.pause();
    }
    FrameAssembler.decode(data, decoder)
        .onComplete(
            ar -> {
              if (session.isClosed()) {
                return;
              }
              if (big) {
                ws.resume();
              }
              if (ar.succeeded()) {
                session.dispatch(ar.result());
              } else if (ar.cause() instanceof ProtocolException e) {
                session.close(e.reason(), e.getMessage());
              } else {
                LOG.warn(
                    "cluster {}: message not decoded: {}",
                    session.cluster(),
                    ar.cause().toString());
                session.close(CloseReason.MALFORMED_MESSAGE, "not decodable");
              }
            });
  }

  long lastHeardNanos() {
    return lastHeardNanos;
  }

  /** True once per flush period when the agent was heard since the previous call. */
  boolean takeHeard() {
    return heardSinceFlush.getAndSet(
        false); // a read then a write could lose a message heard between them
  }
}
