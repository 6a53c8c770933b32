package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Control plane → agent, the answer to {@code hello}: the negotiated {@code protocol}, the session
 * id, how often to send heartbeats, the limits the connection is held to, and the last status seq
 * applied for this cluster (the agent continues numbering above it, so a restarted agent's reports
 * are not mistaken for replays).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Welcome(
    int protocol,
    String id,
    String cluster,
    String session,
    int heartbeatSeconds,
    Limits limits,
    long lastStatusSeq)
    implements AgentMessage {
  public static final String TYPE = "welcome";
}
