package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Ack;
import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.DesiredSubscription;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.Welcome;
import io.olmstead.controlplane.config.GatewaySettings;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent connection: its lifecycle (start, close with a catalogue reason, outbound sends from
 * any thread), the hello/welcome handshake within the hello timeout, and what each decoded message
 * means: status goes to its {@link SessionStatusHandler} once attached, acks, heartbeats, inventory
 * and preflight verdicts to the gateway. Frames, limits and decoding are its {@link
 * SessionReader}'s. Its state is touched only on its own event-loop context, except the volatile
 * fields the publisher and the presence tick read.
 */
final class AgentSession implements PresenceTicker.Watched {
  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);

  private final String cluster;
  private final byte[] credentialHash;
  private final ServerWebSocket ws;
  private final Context context;
  private final AgentGateway gateway;
  private final GatewaySettings settings;
  private final String id = UUID.randomUUID().toString();
  // a later session of the same cluster (a higher order) wins over this one wherever their attaches
  // land
  private final long order;
  private final SessionReader reader;
  private final HandshakeLimits.Permit permit;

  private volatile String sentHash;
  // subscription to the maxVersion last sent (values may be null), replaced whole on each send
  private volatile Map<String, String> sentVersions = Map.of();
  // the packages of the subscriptions last sent, replaced whole on each send
  private volatile Set<String> sentPackages = Set.of();
  private volatile long sentGeneration;
  private volatile long ackedGeneration;
  private boolean helloSeen;
  private boolean ready;
  private boolean closed;
  private long helloTimer = -1;
  private int protocol = ProtocolVersions.CURRENT;
  private SessionStatusHandler status;

  AgentSession(
      String cluster,
      long order,
      byte[] credentialHash,
      ServerWebSocket ws,
      Context context,
      AgentGateway gateway,
      HandshakeLimits.Permit permit) {
    this.cluster = cluster;
    this.credentialHash = credentialHash;
    this.ws = ws;
    this.context = context;
    this.gateway = gateway;
    this.settings = gateway.settings();
    this.permit = permit;
    this.order = order;
    this.reader = new SessionReader(this, ws, gateway.decoder(), settings);
  }

  void start() {
    ws.frameHandler(reader::onFrame);
    ws.exceptionHandler(e -> LOG.debug("cluster {}: connection error: {}", cluster, e.toString()));
    ws.closeHandler(
        v -> {
          closed = true;
          context
              .owner()
              .cancelTimer(helloTimer); // else it holds this closed session until it fires
          permit.release();
          gateway.closed(this);
        });
    // A socket that never completes the handshake must not hold its slot: the limits count it until
    // welcome.
    helloTimer =
        context
            .owner()
            .setTimer(
                settings.helloTimeoutSeconds() * 1000L,
                id ->
                    context.runOnContext(
                        v -> {
                          if (!ready) {
                            close(
                                helloSeen
                                    ? CloseReason.TRY_AGAIN_LATER
                                    : CloseReason.HELLO_REQUIRED,
                                "no handshake within " + settings.helloTimeoutSeconds() + " s");
                          }
                        }));
  }

  /** What a decoded message means; from its reader, on the session's context. */
  void dispatch(AgentMessage message) {
    gateway.metrics().received(message.type());
    if (!ready && !(message instanceof Hello)) {
      close(CloseReason.HELLO_REQUIRED, helloSeen ? "wait for welcome" : "send hello first");
      return;
    }
    if (message instanceof Hello hello) {
      onHello(hello);
    } else if (message instanceof Status report) {
      status.onStatus(report);
    } else if (message instanceof Ack ack) {
      onAck(ack);
    } else if (message instanceof Heartbeat) {
      send(new Heartbeat(protocol, null));
    } else if (message instanceof Inventory inventory) {
      if (inventory.cluster() != null && !inventory.cluster().equals(cluster)) {
        gateway.wrongCluster(this, "inventory", inventory.cluster());
        close(CloseReason.WRONG_CLUSTER, "this credential is for cluster " + cluster);
      } else {
        gateway.inventory(cluster, inventory);
      }
    } else if (message instanceof Preflight preflight) {
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
      close(
          CloseReason.UNSUPPORTED_PROTOCOL,
          "agent offers "
              + hello.acceptedProtocols()
              + ", control plane speaks "
              + ProtocolVersions.SUPPORTED);
      return;
    }
    protocol = negotiated.getAsInt();
    gateway
        .attach(this, hello)
        .onComplete(
            ar -> {
              if (closed) {
                if (ar.succeeded() && ar.result().isPresent()) {
                  // closed (e.g. by the hello timer) while the attach was on its way: it marked the
                  // cluster connected after the close, so it is undone here
                  gateway.attachedAfterClose(this);
                }
                return;
              }
              if (ar.failed()) {
                LOG.warn("cluster {}: attach failed: {}", cluster, ar.cause().toString());
                ws.close((short) CloseReason.SHUTTING_DOWN.code(), "try again");
                return;
              }
              if (ar.result().isEmpty()) {
                close(CloseReason.REPLACED, "a newer connection took over");
                return;
              }
              status =
                  new SessionStatusHandler(
                      this,
                      context,
                      gateway,
                      new StatusAdmissionRules(
                          ar.result().get().lastStatusSeq(), ar.result().get().reported()));
              ready = true;
              permit.release();
              send(
                  new Welcome(
                      protocol,
                      null,
                      cluster,
                      id,
                      settings.heartbeatSeconds(),
                      settings.limits(),
                      status.lastAcceptedSeq()));
              gateway.ready(this);
            });
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

  /**
   * Closes with a reason from the catalogue (from any thread); counted as a rejection unless it is
   * routine.
   */
  @Override
  public void close(CloseReason reason, String detail) {
    context.runOnContext(
        v -> {
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

  @Override
  public String cluster() {
    return cluster;
  }

  String id() {
    return id;
  }

  long order() {
    return order;
  }

  byte[] credentialHash() {
    return credentialHash;
  }

  int protocol() {
    return protocol;
  }

  /**
   * Whether the handshake completed at some point (the session then owned the cluster's presence).
   */
  boolean isReadyOnce() {
    return ready;
  }

  @Override
  public boolean isReady() {
    return ready && !closed;
  }

  /** Whether the connection closed or is closing (on the session's context only). */
  boolean isClosed() {
    return closed;
  }

  @Override
  public long lastHeardNanos() {
    return reader.lastHeardNanos();
  }

  /** True once per flush period when the agent was heard since the previous call. */
  @Override
  public boolean takeHeard() {
    return reader.takeHeard();
  }

  /**
   * The {@code maxVersion} this session last sent the cluster for {@code subscription} (null: none
   * sent, or none in it).
   */
  String sentVersion(String subscription) {
    return sentVersions.get(subscription);
  }

  /**
   * Whether the desired state last sent holds a subscription of one of {@code packages} (false
   * before the first send).
   */
  boolean holdsAnyPackage(Set<String> packages) {
    if (packages.isEmpty()) {
      return false;
    }
    for (String p : sentPackages) {
      if (packages.contains(p)) {
        return true;
      }
    }
    return false;
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

  /**
   * A desired state with these subscriptions goes out (from the publisher's context); reports
   * waiting for it go on.
   */
  void markSent(long generation, String hash, List<DesiredSubscription> subscriptions) {
    this.sentGeneration = generation;
    this.sentHash = hash;
    Map<String, String> versions = new HashMap<>();
    subscriptions.forEach(d -> versions.put(d.name(), d.maxVersion()));
    this.sentVersions = versions;
    Set<String> packages = new HashSet<>();
    subscriptions.forEach(d -> packages.add(d.packageName()));
    this.sentPackages = packages;
    Set<String> names = Set.copyOf(versions.keySet());
    context.runOnContext(
        v -> {
          if (closed || status == null) {
            return;
          }
          status.desiredSent(names);
        });
  }
}
