package io.olmstead.agent.pool;

import io.olmstead.agent.channel.ChannelListener;
import io.olmstead.agent.reconcile.SerialLane;
import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Welcome;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Hands a served cluster's channel events to its reconcile loop on a shared executor, one at a time
 * and in order (each cluster's events are serial; different clusters' run side by side): the loop's
 * first desired state lists the guest's managed namespaces (blocking fabric8 calls), which must not
 * run on the event loop that every served cluster's channel shares.
 */
final class OffLoopListener implements ChannelListener {
  private final ChannelListener target;
  private final SerialLane lane;

  OffLoopListener(ChannelListener target, Executor executor) {
    this.target = target;
    this.lane = new SerialLane(executor);
  }

  @Override
  public void onDesired(Desired desired) {
    submit(() -> target.onDesired(desired));
  }

  @Override
  public void onApprove(Approve approve) {
    submit(() -> target.onApprove(approve));
  }

  @Override
  public void onConnected(Welcome welcome) {
    submit(() -> target.onConnected(welcome));
  }

  @Override
  public void onDisconnected(int code, String reason) {
    submit(() -> target.onDisconnected(code, reason));
  }

  private void submit(Runnable event) {
    try {
      lane.execute(
          event); // a failing event is logged by the lane and does not stop this cluster's later
      // ones
    } catch (RejectedExecutionException e) {
      // the replica is closing
    }
  }
}
