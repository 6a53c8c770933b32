package io.olmstead.agent.reconcile;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelListener;
import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Welcome;

/**
 * Connects the channel client and the reconcile loop: desired state and approvals flow in, statuses
 * flow out. The listener methods only hand over (the reconcile loop queues work), so the channel's
 * event loop never blocks.
 */
public final class ChannelBridge implements ChannelListener, StatusSink {
  private volatile AgentReconciler reconciler;
  private volatile ChannelClient client;

  /** Binds both ends (they are built after the bridge, each needing the other). */
  public void bind(AgentReconciler newReconciler, ChannelClient newClient) {
    this.reconciler = newReconciler;
    this.client = newClient;
  }

  @Override
  public void onDesired(Desired desired) {
    reconciler.setDesired(
        desired.generation(), ProtocolMapping.fromProtocol(desired.subscriptions()));
    if (!desired.preflightRequests().isEmpty()) {
      reconciler.preflight(
          desired.preflightRequests(),
          answer -> {
            ChannelClient c = client;
            if (c != null) {
              c.preflight(answer);
            }
          });
    }
  }

  @Override
  public void onApprove(Approve approve) {
    reconciler.approve(approve.subscription(), approve.bundle());
  }

  @Override
  public void onConnected(Welcome welcome) {
    // Catalogs come from the control plane: fetches that failed while it was away may succeed now.
    reconciler.catalogsChanged();
    reconciler.forgetPreflights();
  }

  @Override
  public void publish(SubscriptionStatus status) {
    ChannelClient c = client;
    if (c != null) {
      c.report(ProtocolMapping.toProtocol(status));
    }
  }

  @Override
  public void removed(String subscription) {
    ChannelClient c = client;
    AgentReconciler r = reconciler;
    if (c != null && r != null) {
      // Status is state: a full report without the removed subscription tells the control plane it
      // is gone.
      c.replaceAll(
          r.statuses().values().stream()
              .filter(s -> !s.name().equals(subscription))
              .map(ProtocolMapping::toProtocol)
              .toList());
    }
  }
}
