package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Control plane → agent: the cluster's whole desired state at {@code generation} (higher replaces
 * lower; the agent answers with {@code ack}); {@code preflights} (optional) are checks the control
 * plane asks for, each answered with a {@link Preflight} message.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Desired(
    int protocol,
    String id,
    long generation,
    List<DesiredSubscription> subscriptions,
    List<PreflightRequest> preflights)
    implements AgentMessage {
  public static final String TYPE = "desired";

  /** A desired state without preflight requests. */
  public Desired(
      int protocol, String id, long generation, List<DesiredSubscription> subscriptions) {
    this(protocol, id, generation, subscriptions, null);
  }

  /** The preflight requests, never null. */
  public List<PreflightRequest> preflightRequests() {
    return preflights == null ? List.of() : preflights;
  }
}
