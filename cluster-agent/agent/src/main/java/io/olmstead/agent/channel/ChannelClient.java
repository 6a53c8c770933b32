package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.Ack;
import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Heartbeat;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolException;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.StatusAck;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.olmstead.apispec.protocol.Welcome;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's end of the channel: enrolls when it holds only a token ({@link ChannelConnector}),
 * keeps one WebSocket open (reconnecting with exponential backoff and jitter), acks desired state
 * after handing it to the {@link ChannelListener}, keeps the connection alive with heartbeats, and
 * reports status through its {@link ChannelOutbox}: the newest entry per subscription, a {@code
 * full} report after every (re)connect. All state lives on one Vert.x context; the public methods
 * may be called from any thread.
 */
public final class ChannelClient {
  private static final Logger LOG = LoggerFactory.getLogger(ChannelClient.class);

  private final Vertx vertx;
  private final Context context;
  private volatile ChannelOptions options; // replaced only on the context, by refreshFacts
  private final CredentialStorage credentials;
  private final ChannelListener listener;
  private final ReconnectPolicy reconnects;
  private final ChannelConnector connector;
  private final ChannelOutbox outbox;

  private WebSocket ws;
  private boolean welcomed;
  private boolean stopped = true;
  private long heartbeatTimer = -1;
  private long retryTimer = -1;
  // a new credential arrived while an attempt was under way: its failure is followed by a prompt
  // dial, not the backoff
  private boolean redialWanted;
  private long lastHeardNanos;
  private int heartbeatSeconds = 15;
  private volatile long lastGeneration;
  private volatile long lastAckedSeq;
  private volatile String lastCloseReason;

  public ChannelClient(
      Vertx vertx,
      HttpClient http,
      WebSocketClient wsClient,
      ChannelOptions options,
      CredentialStorage credentials,
      ChannelListener listener) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.options = options;
    this.credentials = credentials;
    this.listener = listener;
    Backoff backoff = new Backoff(options.minBackoff(), options.maxBackoff());
    this.reconnects = new ReconnectPolicy(backoff);
    this.connector = new ChannelConnector(http, wsClient, credentials, backoff);
    this.outbox = new ChannelOutbox(vertx, context, () -> ws, () -> this.options);
  }

  public void start() {
    context.runOnContext(
        v -> {
          if (stopped) {
            stopped = false;
            connect();
          }
        });
  }

  /** Stops for good: closes the connection and does not reconnect. */
  public Future<Void> stop() {
    Promise<Void> done = Promise.promise();
    context.runOnContext(
        v -> {
          stopped = true;
          cancelHeartbeat();
          (ws == null ? Future.<Void>succeededFuture() : ws.close((short) 1000, "agent stopping"))
              .onComplete(done);
        });
    return done.future();
  }

  /**
   * New facts about the cluster (they could not be read when the channel started): the hello
   * carries facts, so a connected session is closed (1000) and opened again with them; not
   * connected, the next hello carries them.
   */
  public void refreshFacts(Facts facts) {
    context.runOnContext(
        v -> {
          options = options.withFacts(facts);
          if (ws != null) {
            LOG.info("cluster {}: reconnecting to send its facts", options.clusterName());
            ws.close((short) 1000, "facts changed");
          }
        });
  }

  /**
   * The stored credential changed (handed over again): a client waiting to dial again dials after a
   * short jittered delay instead of the rest of its backoff; an attempt under way that fails is
   * followed by such a prompt dial. A connected session is left alone: the control plane closes the
   * one using a revoked credential (4007).
   */
  public void credentialChanged() {
    context.runOnContext(
        v -> {
          if (stopped || ws != null) {
            return;
          }
          if (retryTimer >= 0) {
            vertx.cancelTimer(retryTimer);
            retryTimer = -1;
            long delay = reconnects.soon();
            LOG.info("cluster {}: new credential; dialing in {} ms", options.clusterName(), delay);
            retry(delay);
          } else {
            redialWanted = true;
          }
        });
  }

  /**
   * Records the newest status of one subscription; sent soon when connected, else after the next
   * connect.
   */
  public void report(SubscriptionStatus subscription) {
    context.runOnContext(v -> outbox.report(subscription));
  }

  /**
   * Replaces the agent's whole status (subscriptions not listed are gone); the next report is full.
   */
  public void replaceAll(Collection<SubscriptionStatus> subscriptions) {
    List<SubscriptionStatus> copy = List.copyOf(subscriptions);
    context.runOnContext(v -> outbox.replaceAll(copy));
  }

  /**
   * Sends the cluster's inventory now when connected, and after every (re)connect until a newer one
   * replaces it.
   */
  public void publishInventory(Inventory report) {
    context.runOnContext(v -> outbox.publishInventory(report));
  }

  /**
   * Sends a preflight verdict (from any thread); dropped while disconnected, as the control plane
   * asks again in the desired state it sends on the next connection.
   */
  public void preflight(Preflight answer) {
    context.runOnContext(v -> outbox.preflight(answer));
  }

  public boolean isConnected() {
    return outbox.connected();
  }

  public long lastGeneration() {
    return lastGeneration;
  }

  public long lastAckedSeq() {
    return lastAckedSeq;
  }

  public Optional<String> lastCloseReason() {
    return Optional.ofNullable(lastCloseReason);
  }

  public String clusterName() {
    return options.clusterName();
  }

  private void connect() {
    if (stopped) {
      return;
    }
    connector.attempt(
        options,
        new ChannelConnector.Outcome() {
          @Override
          public void opened(WebSocket socket) {
            ChannelClient.this.opened(socket);
          }

          @Override
          public void enrolled() {
            connect();
          }

          @Override
          public void retry(long delayMillis) {
            ChannelClient.this.retry(delayMillis);
          }
        });
  }

  private void retry(long delayMillis) {
    if (stopped) {
      return;
    }
    long delay = delayMillis;
    if (redialWanted) {
      redialWanted = false;
      delay = Math.min(delayMillis, reconnects.soon());
    }
    if (retryTimer >= 0) {
      vertx.cancelTimer(retryTimer);
    }
    retryTimer =
        vertx.setTimer(
            delay,
            id ->
                context.runOnContext(
                    v -> {
                      if (retryTimer == id) {
                        retryTimer = -1;
                        connect();
                      }
                    }));
  }

  private void opened(WebSocket socket) {
    ws = socket;
    redialWanted = false;
    welcomed = false;
    lastHeardNanos = System.nanoTime();
    socket.textMessageHandler(this::onText);
    socket.exceptionHandler(e -> LOG.debug("cluster {}: {}", options.clusterName(), e.toString()));
    socket.closeHandler(v -> closed(socket));
    send(
        WireSanitizer.hello(
            new Hello(
                ProtocolVersions.CURRENT,
                null,
                options.agentVersion(),
                ProtocolVersions.SUPPORTED,
                options.facts(),
                outbox.lastSeq())));
    // A control plane that never answers hello is treated like a dead connection.
    vertx.setTimer(
        30_000,
        id -> {
          if (ws == socket && !welcomed) {
            socket.close((short) CloseReason.HELLO_REQUIRED.code(), "no welcome");
          }
        });
  }

  private void closed(WebSocket socket) {
    if (ws != socket) {
      return;
    }
    ws = null;
    outbox.disconnected();
    welcomed = false;
    cancelHeartbeat();
    Short code = socket.closeStatusCode();
    String reason = socket.closeReason();
    lastCloseReason = reason;
    listener.onDisconnected(code == null ? 1006 : code, reason);
    if (stopped) {
      return;
    }
    if (code != null
        && code == CloseReason.CREDENTIAL_REVOKED.code()
        && options.enrollmentToken() != null) {
      credentials.clear();
    }
    long delay = reconnects.afterClose(code == null ? null : (int) code);
    if (ReconnectPolicy.refusedOurMessage(code == null ? null : (int) code)) {
      LOG.error(
          "cluster {}: the control plane refused a message of this agent ({} {}); refusal {} in a row, "
              + "reconnecting in {} ms",
          options.clusterName(),
          code,
          reason,
          reconnects.refusals(),
          delay);
    } else {
      LOG.info("cluster {}: disconnected ({} {})", options.clusterName(), code, reason);
    }
    retry(delay);
  }

  private void onText(String text) {
    lastHeardNanos = System.nanoTime();
    AgentMessage message;
    try {
      message = ProtocolCodec.decode(text);
    } catch (ProtocolException e) {
      ws.close((short) e.reason().code(), e.reason().describe(e.getMessage()));
      return;
    }
    if (message instanceof Welcome welcome) {
      onWelcome(welcome);
    } else if (message instanceof Desired desired) {
      if (desired.generation() > lastGeneration) {
        lastGeneration = desired.generation();
        listener.onDesired(desired);
      }
      send(new Ack(ProtocolVersions.CURRENT, null, desired.generation()));
    } else if (message instanceof StatusAck ack) {
      lastAckedSeq = Math.max(lastAckedSeq, ack.seq());
    } else if (message instanceof Approve approve) {
      listener.onApprove(approve);
    } else if (!(message instanceof Heartbeat)) {
      LOG.debug("cluster {}: ignoring {}", options.clusterName(), message.type());
    }
  }

  private void onWelcome(Welcome welcome) {
    welcomed = true;
    outbox.welcomed(welcome.lastStatusSeq());
    reconnects.welcomed(System.nanoTime());
    heartbeatSeconds = Math.max(1, welcome.heartbeatSeconds());
    startHeartbeat();
    listener.onConnected(welcome);
    outbox.resend();
  }

  private void send(AgentMessage message) {
    outbox.send(message);
  }

  private void startHeartbeat() {
    cancelHeartbeat();
    heartbeatTimer =
        vertx.setPeriodic(
            heartbeatSeconds * 1000L,
            id ->
                context.runOnContext(
                    v -> {
                      if (ws == null) {
                        return;
                      }
                      if (welcomed) {
                        reconnects.stillConnected(System.nanoTime());
                      }
                      if (System.nanoTime() - lastHeardNanos > heartbeatSeconds * 3_000_000_000L) {
                        ws.close(
                            (short) CloseReason.HEARTBEAT_TIMEOUT.code(), "control plane silent");
                        return;
                      }
                      send(new Heartbeat(ProtocolVersions.CURRENT, null));
                    }));
  }

  private void cancelHeartbeat() {
    if (heartbeatTimer >= 0) {
      vertx.cancelTimer(heartbeatTimer);
      heartbeatTimer = -1;
    }
  }
}
