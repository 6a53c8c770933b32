package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Control plane → agent: the status report {@code seq} is durably applied (or was already). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StatusAck(int protocol, String id, long seq) implements AgentMessage {
  public static final String TYPE = "statusAck";
}
