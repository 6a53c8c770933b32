package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Ack;
import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolException;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.StatusAck;
import io.olmstead.apispec.protocol.Welcome;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import java.util.OptionalInt;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent connection: reassembles frames within the limits, rate-limits messages, runs the hello/welcome
 * handshake and hands status and acks to the gateway. Its state is touched only on its own event-loop context.
 */
final class AgentSession {
  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);

  private final String cluster;
  private final byte[] credentialHash;
  private final ServerWebSocket ws;
  private final Context context;
  private final AgentGateway gateway;
  private final GatewaySettings settings;
  private final String id = UUID.randomUUID().toString();
  private final TokenBucket bucket;

  private volatile long lastHeardNanos = System.nanoTime();
  private volatile boolean heardSinceFlush = true;
  private volatile String sentHash;
  private volatile long sentGeneration;
  private volatile long ackedGeneration;
  private Buffer partial;
  private boolean helloSeen;
  private boolean handshakeReleased;
  private boolean ready;
  private boolean closed;
  private int protocol = ProtocolVersions.CURRENT;
  private long lastAcceptedSeq;

  AgentSession(String cluster, byte[] credentialHash, ServerWebSocket ws, Context context, AgentGateway gateway) {
    this.cluster = cluster;
    this.credentialHash = credentialHash;
    this.ws = ws;
    this.context = context;
    this.gateway = gateway;
    this.settings = gateway.settings();
    this.bucket = new TokenBucket(settings.messagesPerSecond(), settings.burst(), System.nanoTime());
  }

  void start() {
    ws.frameHandler(this::onFrame);
    ws.exceptionHandler(e -> LOG.debug("cluster {}: connection error: {}", cluster, e.toString()));
    ws.closeHandler(v -> {
      closed = true;
      handshakeDone();
      gateway.closed(this);
    });
  }

  private void onFrame(WebSocketFrame frame) {
    if (closed || !(frame.isText() || frame.isBinary() || frame.isContinuation())) {
      return;
    }
    if (frame.isBinary()) {
      close(CloseReason.MALFORMED_MESSAGE, "binary frames are not part of the protocol");
      return;
    }
    Buffer data = frame.binaryData();
    if (data.length() > settings.maxFrameBytes()) {
      close(CloseReason.MESSAGE_TOO_BIG, "frame over " + settings.maxFrameBytes() + " bytes");
      return;
    }
    if (frame.isText()) {
      partial = frame.isFinal() ? null : Buffer.buffer();
    } else if (partial == null) {
      close(CloseReason.MALFORMED_MESSAGE, "continuation without a first frame");
      return;
    }
    if (partial != null) {
      if (partial.length() + data.length() > settings.maxMessageBytes()) {
        close(CloseReason.MESSAGE_TOO_BIG, "message over " + settings.maxMessageBytes() + " bytes");
        return;
      }
      partial.appendBuffer(data);
      if (!frame.isFinal()) {
        return;
      }
      data = partial;
      partial = null;
    }
    onMessage(data);
  }

  private void onMessage(Buffer data) {
    long now = System.nanoTime();
    lastHeardNanos = now;
    heardSinceFlush = true;
    if (!bucket.tryTake(now)) {
      close(CloseReason.RATE_LIMITED, "over " + settings.messagesPerSecond() + " messages/s");
      return;
    }
    AgentMessage message;
    try {
      message = ProtocolCodec.decode(data.toString());
    } catch (ProtocolException e) {
      close(e.reason(), e.getMessage());
      return;
    }
    gateway.metrics().received(message.type());
    if (!ready && !(message instanceof Hello)) {
      close(CloseReason.HELLO_REQUIRED, helloSeen ? "wait for welcome" : "send hello first");
      return;
    }
    if (message instanceof Hello hello) {
      onHello(hello);
    } else if (message instanceof Status status) {
      onStatus(status);
    } else if (message instanceof Ack ack) {
      onAck(ack);
    } else if (message instanceof Heartbeat) {
      send(new Heartbeat(protocol, null));
    } else {
      close(CloseReason.UNEXPECTED_MESSAGE, message.type() + " is sent by the control plane only");
    }
  }

  private void onHello(Hello hello) {
    if (helloSeen) {
      close(CloseReason.UNEXPECTED_MESSAGE, "hello was already sent");
      return;
    }
    helloSeen = true;
    OptionalInt negotiated = ProtocolVersions.negotiate(hello.acceptedProtocols());
    if (negotiated.isEmpty()) {
      close(CloseReason.UNSUPPORTED_PROTOCOL, "agent offers " + hello.acceptedProtocols() + ", control plane speaks "
          + ProtocolVersions.SUPPORTED);
      return;
    }
    protocol = negotiated.getAsInt();
    gateway.attach(this, hello).onComplete(ar -> {
      if (closed) {
        return;
      }
      if (ar.failed()) {
        LOG.warn("cluster {}: attach failed: {}", cluster, ar.cause().toString());
        ws.close((short) CloseReason.SHUTTING_DOWN.code(), "try again");
        return;
      }
      lastAcceptedSeq = ar.result();
      ready = true;
      handshakeDone();
      send(new Welcome(protocol, null, cluster, id, settings.heartbeatSeconds(), settings.limits(), lastAcceptedSeq));
      gateway.ready(this);
    });
  }

  private void handshakeDone() {
    if (!handshakeReleased) {
      handshakeReleased = true;
      gateway.handshakeDone();
    }
  }

  private void onStatus(Status status) {
    if (status.cluster() != null && !status.cluster().equals(cluster)) {
      gateway.wrongCluster(this, status.cluster());
      close(CloseReason.WRONG_CLUSTER, "this credential is for cluster " + cluster);
      return;
    }
    String invalid = StatusValidation.invalid(status);
    if (invalid != null) {
      close(CloseReason.MALFORMED_MESSAGE, invalid);
      return;
    }
    long seq = status.seq();
    if (seq <= lastAcceptedSeq) {
      // A replay or a late report: already applied or superseded, so acknowledged without changing anything.
      send(new StatusAck(protocol, status.id(), seq));
      return;
    }
    lastAcceptedSeq = seq;
    gateway.ingestor().submitStatus(cluster, status).onComplete(ar -> context.runOnContext(v -> {
      if (ar.succeeded()) {
        send(new StatusAck(protocol, status.id(), seq));
      } else {
        // the seq was taken as applied; closing makes the agent reconnect and resend its full state, which the
        // seq stored in the database (older than this one) lets in
        LOG.warn("cluster {}: status {} not stored: {}", cluster, seq, ar.cause().toString());
        close(CloseReason.TRY_AGAIN_LATER, "status " + seq + " was not stored");
      }
    }));
  }

  private void onAck(Ack ack) {
    if (ack.generation() < 1) {
      close(CloseReason.MALFORMED_MESSAGE, "generation must be positive");
      return;
    }
    ackedGeneration = Math.max(ackedGeneration, ack.generation());
    gateway.ingestor().submitAck(cluster, ack.generation());
    gateway.acked(this, ack.generation());
  }

  /** Sends a message from any thread; dropped once the connection is closed. */
  void send(AgentMessage message) {
    if (Vertx.currentContext() == context) {
      write(message);
    } else {
      context.runOnContext(v -> write(message));
    }
  }

  private void write(AgentMessage message) {
    if (closed) {
      return;
    }
    ws.writeTextMessage(ProtocolCodec.encode(message));
    gateway.metrics().sent(message.type());
  }

  /** Closes with a reason from the catalogue (from any thread); counted as a rejection unless it is routine. */
  void close(CloseReason reason, String detail) {
    context.runOnContext(v -> {
      if (closed) {
        return;
      }
      closed = true;
      if (reason != CloseReason.SHUTTING_DOWN && reason != CloseReason.REPLACED) {
        gateway.metrics().rejected(reason);
        LOG.info("cluster {}: closing connection: {}", cluster, reason.describe(detail));
      }
      ws.close((short) reason.code(), reason.describe(detail));
    });
  }

  String cluster() {
    return cluster;
  }

  String id() {
    return id;
  }

  byte[] credentialHash() {
    return credentialHash;
  }

  int protocol() {
    return protocol;
  }

  /** Whether the handshake completed at some point (the session then owned the cluster's presence). */
  boolean isReadyOnce() {
    return ready;
  }

  boolean isReady() {
    return ready && !closed;
  }

  long lastHeardNanos() {
    return lastHeardNanos;
  }

  /** True once per flush period when the agent was heard since the previous call. */
  boolean takeHeard() {
    boolean heard = heardSinceFlush;
    heardSinceFlush = false;
    return heard;
  }

  String sentHash() {
    return sentHash;
  }

  long sentGeneration() {
    return sentGeneration;
  }

  long ackedGeneration() {
    return ackedGeneration;
  }

  void markSent(long generation, String hash) {
    this.sentGeneration = generation;
    this.sentHash = hash;
  }
}
