package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Either direction: the sender is alive; sent every {@code heartbeatSeconds} of the welcome. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Heartbeat(int protocol, String id) implements AgentMessage {
  public static final String TYPE = "heartbeat";
}
