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
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent connection: reassembles frames within the limits, rate-limits messages, decodes and validates each
 * against its schema (big ones off the event loop, the socket paused meanwhile so order holds), runs the
 * hello/welcome handshake within the hello timeout and hands status ({@link StatusAdmission}) and acks to the
 * gateway. Its state is touched only on its own event-loop context.
 */
final class AgentSession {
  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);
  private static final int MAX_WAITING = 16;

  private final String cluster;
  private final byte[] credentialHash;
  private final ServerWebSocket ws;
  private final Context context;
  private final AgentGateway gateway;
  private final GatewaySettings settings;
  private final String id = UUID.randomUUID().toString();
  private final TokenBucket bucket;
  private final FrameAssembler frames;
  private final HandshakeLimits.Permit permit;
  // Reports that arrived before the first desired state was sent: placement is not known yet.
  private final Queue<Status> waiting = new ArrayDeque<>();

  private volatile long lastHeardNanos = System.nanoTime();
  private volatile boolean heardSinceFlush = true;
  private volatile String sentHash;
  private volatile long sentGeneration;
  private volatile long ackedGeneration;
  private boolean helloSeen;
  private boolean ready;
  private boolean closed;
  private boolean droppedLogged;
  private int protocol = ProtocolVersions.CURRENT;
  private StatusAdmission admission;

  AgentSession(String cluster, byte[] credentialHash, ServerWebSocket ws, Context context, AgentGateway gateway,
      HandshakeLimits.Permit permit) {
    this.cluster = cluster;
    this.credentialHash = credentialHash;
    this.ws = ws;
    this.context = context;
    this.gateway = gateway;
    this.settings = gateway.settings();
    this.permit = permit;
    this.frames = new FrameAssembler(settings.maxFrameBytes(), settings.maxMessageBytes());
    this.bucket = new TokenBucket(settings.messagesPerSecond(), settings.burst(), System.nanoTime());
  }

  void start() {
    ws.frameHandler(this::onFrame);
    ws.exceptionHandler(e -> LOG.debug("cluster {}: connection error: {}", cluster, e.toString()));
    ws.closeHandler(v -> {
      closed = true;
      permit.release();
      gateway.closed(this);
    });
    // A socket that never completes the handshake must not hold its slot: the limits count it until welcome.
    context.owner().setTimer(settings.helloTimeoutSeconds() * 1000L, id -> context.runOnContext(v -> {
      if (!ready) {
        close(helloSeen ? CloseReason.TRY_AGAIN_LATER : CloseReason.HELLO_REQUIRED,
            "no handshake within " + settings.helloTimeoutSeconds() + " s");
      }
    }));
  }

  private void onFrame(WebSocketFrame frame) {
    if (closed) {
      return;
    }
    Buffer message;
    try {
      message = frames.accept(frame);
    } catch (ProtocolException e) {
      close(e.reason(), e.getMessage());
      return;
    }
    if (message != null) {
      onMessage(message);
    }
  }

  private void onMessage(Buffer data) {
    long now = System.nanoTime();
    lastHeardNanos = now;
    heardSinceFlush = true;
    if (!bucket.tryTake(now)) {
      close(CloseReason.RATE_LIMITED, "over " + settings.messagesPerSecond() + " messages/s");
      return;
    }
    boolean big = FrameAssembler.big(data);
    if (big) {
      ws.pause();
    }
    FrameAssembler.decode(data, gateway.decoder()).onComplete(ar -> {
      if (closed) {
        return;
      }
      if (big) {
        ws.resume();
      }
      if (ar.succeeded()) {
        dispatch(ar.result());
      } else if (ar.cause() instanceof ProtocolException e) {
        close(e.reason(), e.getMessage());
      } else {
        LOG.warn("cluster {}: message not decoded: {}", cluster, ar.cause().toString());
        close(CloseReason.MALFORMED_MESSAGE, "not decodable");
      }
    });
  }

  private void dispatch(AgentMessage message) {
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
    } else if (message instanceof io.olmstead.apispec.protocol.Inventory inventory) {
      if (inventory.cluster() != null && !inventory.cluster().equals(cluster)) {
        gateway.wrongCluster(this, inventory.cluster());
        close(CloseReason.WRONG_CLUSTER, "this credential is for cluster " + cluster);
      } else {
        gateway.inventory(cluster, inventory);
      }
    } else if (message instanceof io.olmstead.apispec.protocol.Preflight preflight) {
      gateway.preflight(this, preflight);
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
      admission = new StatusAdmission(ar.result().lastStatusSeq(), ar.result().reported());
      ready = true;
      permit.release();
      send(new Welcome(protocol, null, cluster, id, settings.heartbeatSeconds(), settings.limits(),
          admission.lastAcceptedSeq()));
      gateway.ready(this);
    });
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
    if (!admission.desiredKnown()) {
      if (waiting.size() >= MAX_WAITING) {
        close(CloseReason.TRY_AGAIN_LATER, "reports sent before the desired state");
      } else {
        waiting.add(status);
      }
      return;
    }
    admit(status);
  }

  private void admit(Status status) {
    StatusAdmission.Decision decision = admission.admit(status);
    if (decision instanceof StatusAdmission.Replay replay) {
      // A replay or a late report: already applied or superseded, so acknowledged without changing anything.
      send(new StatusAck(protocol, status.id(), replay.seq()));
      return;
    }
    if (decision instanceof StatusAdmission.Refuse refuse) {
      close(CloseReason.MALFORMED_MESSAGE, refuse.detail());
      return;
    }
    StatusAdmission.Accept accept = (StatusAdmission.Accept) decision;
    if (!accept.dropped().isEmpty()) {
      gateway.metrics().statusDropped(accept.dropped().size());
      if (!droppedLogged) {
        droppedLogged = true;
        // INFO: an agent reports the subscriptions OLM implies for dependencies too, which no fleet subscription names
        LOG.info("cluster {}: status for subscriptions not placed on it dropped (logged once per connection): {}",
            cluster, accept.dropped().subList(0, Math.min(5, accept.dropped().size())));
      }
    }
    long seq = status.seq();
    gateway.ingestor().submitStatus(cluster, accept.status()).onComplete(ar -> context.runOnContext(v -> {
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

  /** A desired state with these subscriptions goes out (from the publisher's context); reports waiting for it go on. */
  void markSent(long generation, String hash, Collection<String> subscriptions) {
    this.sentGeneration = generation;
    this.sentHash = hash;
    Set<String> names = Set.copyOf(subscriptions);
    context.runOnContext(v -> {
      if (closed || admission == null) {
        return;
      }
      admission.desiredSent(names);
      while (!waiting.isEmpty() && !closed) {
        admit(waiting.poll());
      }
    });
  }
}
