package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Agent → control plane: the desired state at {@code generation} was received and taken up. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Ack(int protocol, String id, long generation) implements AgentMessage {
  public static final String TYPE = "ack";
}
