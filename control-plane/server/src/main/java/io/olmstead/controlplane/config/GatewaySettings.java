package io.olmstead.controlplane.config;

import io.olmstead.apispec.protocol.Limits;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Settings of the agent gateway, read from {@code OLMSTEAD_AGENT_*} variables: heartbeat and
 * disconnect window, per-connection limits, ingestion batching, the resync period, the memory kept
 * for catalog contents, and the handshake defences (hello timeout, concurrent handshakes in all,
 * per source address and per credential). The HTTP server's idle timeout ({@code
 * OLMSTEAD_HTTP_IDLE_TIMEOUT_SECONDS}) is here because it must outlast the heartbeat.
 */
public record GatewaySettings(
    int heartbeatSeconds,
    int disconnectSeconds,
    int maxFrameBytes,
    int maxMessageBytes,
    int messagesPerSecond,
    int burst,
    int batchMaxRows,
    int batchMaxDelayMillis,
    int resyncSeconds,
    int catalogCacheMegabytes,
    String replica,
    int helloTimeoutSeconds,
    int maxHandshakes,
    int handshakesPerSource,
    int handshakesPerCredential,
    int idleTimeoutSeconds) {

  public static final String HEARTBEAT_SECONDS = "OLMSTEAD_AGENT_HEARTBEAT_SECONDS";
  public static final String DISCONNECT_SECONDS = "OLMSTEAD_AGENT_DISCONNECT_SECONDS";
  public static final String MAX_FRAME_BYTES = "OLMSTEAD_AGENT_MAX_FRAME_BYTES";
  public static final String MAX_MESSAGE_BYTES = "OLMSTEAD_AGENT_MAX_MESSAGE_BYTES";
  public static final String MESSAGES_PER_SECOND = "OLMSTEAD_AGENT_MESSAGES_PER_SECOND";
  public static final String BURST = "OLMSTEAD_AGENT_MESSAGE_BURST";
  public static final String RESYNC_SECONDS = "OLMSTEAD_AGENT_RESYNC_SECONDS";
  public static final String CATALOG_CACHE_MB = "OLMSTEAD_AGENT_CATALOG_CACHE_MB";
  public static final String HELLO_TIMEOUT_SECONDS = "OLMSTEAD_AGENT_HELLO_TIMEOUT_SECONDS";
  public static final String MAX_HANDSHAKES = "OLMSTEAD_AGENT_MAX_HANDSHAKES";
  public static final String HANDSHAKES_PER_SOURCE = "OLMSTEAD_AGENT_HANDSHAKES_PER_SOURCE";
  public static final String HANDSHAKES_PER_CREDENTIAL = "OLMSTEAD_AGENT_HANDSHAKES_PER_CREDENTIAL";
  public static final String IDLE_TIMEOUT_SECONDS = "OLMSTEAD_HTTP_IDLE_TIMEOUT_SECONDS";

  /** The event stream's ping period: an idle timeout must be longer. */
  static final int EVENT_PING_SECONDS = 15;

  /** Every variable read here; {@code ControlPlaneConfig.ENVIRONMENT} includes them. */
  public static final Set<String> ENVIRONMENT =
      Set.of(
          HEARTBEAT_SECONDS,
          DISCONNECT_SECONDS,
          MAX_FRAME_BYTES,
          MAX_MESSAGE_BYTES,
          MESSAGES_PER_SECOND,
          BURST,
          RESYNC_SECONDS,
          CATALOG_CACHE_MB,
          HELLO_TIMEOUT_SECONDS,
          MAX_HANDSHAKES,
          HANDSHAKES_PER_SOURCE,
          HANDSHAKES_PER_CREDENTIAL,
          IDLE_TIMEOUT_SECONDS);

  public GatewaySettings {
    if (disconnectSeconds <= heartbeatSeconds) {
      throw new ConfigException(
          DISCONNECT_SECONDS,
          "must be longer than " + HEARTBEAT_SECONDS + " (" + heartbeatSeconds + ")");
    }
    if (maxMessageBytes < maxFrameBytes) {
      throw new ConfigException(
          MAX_MESSAGE_BYTES, "must be at least " + MAX_FRAME_BYTES + " (" + maxFrameBytes + ")");
    }
    if (handshakesPerSource > maxHandshakes) {
      throw new ConfigException(
          HANDSHAKES_PER_SOURCE, "must be at most " + MAX_HANDSHAKES + " (" + maxHandshakes + ")");
    }
    if (idleTimeoutSeconds <= Math.max(heartbeatSeconds, EVENT_PING_SECONDS)) {
      throw new ConfigException(
          IDLE_TIMEOUT_SECONDS,
          "must be longer than "
              + HEARTBEAT_SECONDS
              + " ("
              + heartbeatSeconds
              + ") and the event stream's "
              + EVENT_PING_SECONDS
              + " s ping");
    }
  }

  public static GatewaySettings defaults() {
    return fromEnvironment(Map.of());
  }

  public static GatewaySettings fromEnvironment(Map<String, String> environment) {
    EnvReader env = new EnvReader(environment);
    int maxHandshakes = env.positiveInt(MAX_HANDSHAKES, 200);
    return new GatewaySettings(
        env.positiveInt(HEARTBEAT_SECONDS, 15),
        env.positiveInt(DISCONNECT_SECONDS, 45),
        env.positiveInt(MAX_FRAME_BYTES, 64 * 1024),
        env.positiveInt(MAX_MESSAGE_BYTES, 1024 * 1024),
        env.positiveInt(MESSAGES_PER_SECOND, 20),
        env.positiveInt(BURST, 200),
        500,
        50,
        env.positiveInt(RESYNC_SECONDS, 60),
        env.positiveInt(CATALOG_CACHE_MB, 64),
        UUID.randomUUID().toString().substring(0, 8),
        env.positiveInt(HELLO_TIMEOUT_SECONDS, 10),
        maxHandshakes,
        // Half the slots: one address (or one NAT) cannot take every slot; a hosted agent pool
        // still connects fast.
        env.positiveInt(HANDSHAKES_PER_SOURCE, Math.max(1, maxHandshakes / 2)),
        // A cluster has one connection; two lets a reconnect overlap a handshake that is still
        // timing out.
        env.positiveInt(HANDSHAKES_PER_CREDENTIAL, 2),
        env.positiveInt(IDLE_TIMEOUT_SECONDS, 60));
  }

  public Limits limits() {
    return new Limits(maxFrameBytes, maxMessageBytes, messagesPerSecond, burst);
  }
}
