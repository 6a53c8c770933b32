package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.Facts;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How one agent reaches the control plane: its base URL, the cluster name it enrolls as, an
 * enrollment token (used only while no credential is stored), labels and facts for enrollment and
 * hello, and the reconnect backoff.
 */
public record ChannelOptions(
    URI controlPlane,
    String clusterName,
    String enrollmentToken,
    Map<String, String> labels,
    Facts facts,
    String agentVersion,
    Duration minBackoff,
    Duration maxBackoff,
    Duration statusFlushDelay) {

  public ChannelOptions {
    Objects.requireNonNull(controlPlane, "controlPlane");
    Objects.requireNonNull(clusterName, "clusterName");
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    facts = facts == null ? new Facts(null, null, null, null) : facts;
    agentVersion = agentVersion == null ? "dev" : agentVersion;
    minBackoff = minBackoff == null ? Duration.ofMillis(500) : minBackoff;
    maxBackoff = maxBackoff == null ? Duration.ofSeconds(30) : maxBackoff;
    statusFlushDelay = statusFlushDelay == null ? Duration.ofMillis(100) : statusFlushDelay;
  }

  public static ChannelOptions of(URI controlPlane, String clusterName, String enrollmentToken) {
    return new ChannelOptions(
        controlPlane, clusterName, enrollmentToken, Map.of(), null, null, null, null, null);
  }

  public ChannelOptions withLabels(Map<String, String> newLabels) {
    return new ChannelOptions(
        controlPlane,
        clusterName,
        enrollmentToken,
        newLabels,
        facts,
        agentVersion,
        minBackoff,
        maxBackoff,
        statusFlushDelay);
  }

  public ChannelOptions withFacts(Facts newFacts) {
    return new ChannelOptions(
        controlPlane,
        clusterName,
        enrollmentToken,
        labels,
        newFacts,
        agentVersion,
        minBackoff,
        maxBackoff,
        statusFlushDelay);
  }

  public ChannelOptions withBackoff(Duration min, Duration max) {
    return new ChannelOptions(
        controlPlane,
        clusterName,
        enrollmentToken,
        labels,
        facts,
        agentVersion,
        min,
        max,
        statusFlushDelay);
  }

  /** The WebSocket URL: http(s) becomes ws(s). */
  URI connectUri() {
    String scheme = "https".equals(controlPlane.getScheme()) ? "wss" : "ws";
    return URI.create(
        scheme + "://" + controlPlane.getAuthority() + basePath() + "/api/v1/agent/connect");
  }

  URI enrollUri() {
    return URI.create(
        controlPlane.getScheme()
            + "://"
            + controlPlane.getAuthority()
            + basePath()
            + "/api/v1/agent/enroll");
  }

  private String basePath() {
    String path = controlPlane.getPath() == null ? "" : controlPlane.getPath();
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
