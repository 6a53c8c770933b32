package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Agent → control plane: the state of the cluster's subscriptions. {@code seq} grows with every
 * report; a {@code full} report lists every subscription the agent has (the ones it omits are
 * gone). {@code cluster}, when present, must be the credential's cluster.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Status(
    int protocol,
    String id,
    String cluster,
    long seq,
    boolean full,
    List<SubscriptionStatus> subscriptions)
    implements AgentMessage {
  public static final String TYPE = "status";

  /**
   * How far above the last applied seq a report may jump; the control plane refuses a larger jump
   * (4002) so that one absurd seq cannot stop a cluster's reports, and an agent whose own counter
   * is further ahead than this starts again just above the welcome's {@code lastStatusSeq}.
   */
  public static final long MAX_SEQ_JUMP = 1_000_000L;
}
