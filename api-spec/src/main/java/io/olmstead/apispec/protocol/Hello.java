package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Agent → control plane, first message on a connection: who the agent is and which protocol
 * versions it speaks ({@code protocol} is its preferred one, {@code supportedProtocols} every one
 * it accepts).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Hello(
    int protocol,
    String id,
    String agentVersion,
    List<Integer> supportedProtocols,
    Facts facts,
    Long lastStatusSeq)
    implements AgentMessage {
  public static final String TYPE = "hello";

  /**
   * The versions this agent accepts; an agent that lists none accepts only its {@code protocol}.
   */
  @JsonIgnore
  public List<Integer> acceptedProtocols() {
    return supportedProtocols == null || supportedProtocols.isEmpty()
        ? List.of(protocol)
        : supportedProtocols;
  }
}
