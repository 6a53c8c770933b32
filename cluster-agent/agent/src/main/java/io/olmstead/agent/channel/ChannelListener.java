package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Welcome;

/**
 * What the agent's reconcile loop receives from the channel. Called on the channel's event-loop
 * context: implementations hand work off and return quickly. Returning from {@link #onDesired}
 * acknowledges the generation.
 */
public interface ChannelListener {
  /** A newer desired state (generations only grow; an older or repeated one is not delivered). */
  void onDesired(Desired desired);

  /** A manual approval of exactly one bundle of one subscription. */
  default void onApprove(Approve approve) {}

  default void onConnected(Welcome welcome) {}

  /**
   * The connection closed; the client reconnects by itself. {@code code}/{@code reason} as in the
   * close frame.
   */
  default void onDisconnected(int code, String reason) {}
}
