package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.AgentMessage;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.olmstead.apispec.protocol.ProtocolVersions;
import io.olmstead.apispec.protocol.SchemaDecoder;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link ChannelClient} sends on its current WebSocket: the status reports (the newest entry
 * per subscription, numbered, a {@code full} report after every welcome), the newest inventory
 * (sent again after every welcome: it is state, like status) and preflight verdicts. A message that
 * breaks the protocol is logged and kept back, as sent it would only close the connection again and
 * again. Every method but {@link #connected()} runs on the client's context.
 */
final class ChannelOutbox {
  // the client's logger: what operators filter on did not move when this was split out of it
  private static final Logger LOG = LoggerFactory.getLogger(ChannelClient.class);

  private final Vertx vertx;
  private final Context context;
  private final Supplier<WebSocket> socket;
  private final Supplier<ChannelOptions> options;
  private final StatusBuffer status = new StatusBuffer();
  private boolean flushScheduled;
  private long nextSeq = 1;
  private volatile boolean connected;
  private Inventory inventory;

  /**
   * {@code socket}: the client's current WebSocket (null between connections); {@code options}: its
   * current ones.
   */
  ChannelOutbox(
      Vertx vertx, Context context, Supplier<WebSocket> socket, Supplier<ChannelOptions> options) {
    // the schemas load here (the agent's main or a pool's starter thread), not in the first status
    // send on the event
    // loop, which a pool replica at load 40 saw blocked 2-6 s in SchemaDecoder's class
    // initialisation
    SchemaDecoder.schemas();
    this.vertx = vertx;
    this.context = context;
    this.socket = socket;
    this.options = options;
  }

  /** Whether welcomed on the current connection (from any thread). */
  boolean connected() {
    return connected;
  }

  /** The seq of the last status report sent (what the hello carries). */
  long lastSeq() {
    return nextSeq - 1;
  }

  /** Welcomed: reports continue above the control plane's last applied seq. */
  void welcomed(long lastStatusSeq) {
    connected = true;
    nextSeq = nextSeq(nextSeq, lastStatusSeq);
  }

  /** After a welcome (and its listener): the full status and the newest inventory. */
  void resend() {
    if (status.known()) {
      sendStatus(true);
    }
    if (inventory != null) {
      sendInventory();
    }
  }

  void disconnected() {
    connected = false;
  }

  /**
   * The next seq after a welcome: ours if it is not behind the control plane's and within the jump
   * it accepts (after a re-enrollment or a restored database the control plane's is lower), else
   * just above the control plane's.
   */
  static long nextSeq(long ours, long lastApplied) {
    long floor = lastApplied + 1;
    return ours >= floor && ours - lastApplied <= Status.MAX_SEQ_JUMP ? ours : floor;
  }

  void report(SubscriptionStatus subscription) {
    status.put(subscription);
    scheduleFlush();
  }

  void replaceAll(List<SubscriptionStatus> subscriptions) {
    status.replaceAll(subscriptions);
    scheduleFlush();
  }

  void publishInventory(Inventory report) {
    inventory = report;
    if (connected) {
      sendInventory();
    }
  }

  void preflight(Preflight answer) {
    String violation = SchemaDecoder.violation(answer);
    if (violation != null) {
      LOG.error(
          "cluster {}: preflight verdict not sent, it breaks the protocol: {}",
          options.get().clusterName(),
          violation);
    } else if (connected) {
      send(answer);
    }
  }

  private void sendInventory() {
    String violation = SchemaDecoder.violation(inventory);
    if (violation != null) {
      LOG.error(
          "cluster {}: inventory not sent, it breaks the protocol: {}",
          options.get().clusterName(),
          violation);
      return;
    }
    send(inventory);
  }

  private void scheduleFlush() {
    if (flushScheduled || !connected) {
      return;
    }
    flushScheduled = true;
    vertx.setTimer(
        Math.max(1, options.get().statusFlushDelay().toMillis()),
        id ->
            context.runOnContext(
                v -> {
                  flushScheduled = false;
                  if (connected && status.hasChanges()) {
                    sendStatus(status.needsFull());
                  }
                }));
  }

  private void sendStatus(boolean full) {
    List<SubscriptionStatus> items = status.take(full);
    Status report =
        WireSanitizer.status(
            new Status(ProtocolVersions.CURRENT, null, null, nextSeq++, full, items));
    String violation = SchemaDecoder.violation(report);
    if (violation != null) {
      // Sent, it would close the connection again and again; kept back, the channel and desired
      // state still work.
      LOG.error(
          "cluster {}: status report not sent, it breaks the protocol: {}",
          options.get().clusterName(),
          violation);
      return;
    }
    send(report);
  }

  /**
   * Sends on the current WebSocket, if there is one open (messages of a closed one are dropped).
   */
  void send(AgentMessage message) {
    WebSocket ws = socket.get();
    if (ws != null && !ws.isClosed()) {
      ws.writeTextMessage(ProtocolCodec.encode(message));
    }
  }
}
