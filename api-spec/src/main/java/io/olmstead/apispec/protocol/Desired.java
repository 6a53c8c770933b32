package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Control plane → agent: the cluster's whole desired state at {@code generation} (higher replaces lower; the agent
 * answers with {@code ack}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Desired(int protocol, String id, long generation, List<DesiredSubscription> subscriptions)
    implements AgentMessage {
  public static final String TYPE = "desired";
}
