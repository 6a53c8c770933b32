package io.olmstead.agent.pool;

import io.olmstead.agent.channel.ChannelListener;
import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.apispec.protocol.Welcome;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * Hands a served cluster's channel events to its reconcile loop on a shared executor, one at a time and in order
 * (each cluster's events are serial; different clusters' run side by side): the loop's first desired
 * state lists the guest's managed namespaces (blocking fabric8 calls), which must not run on the event loop that
 * every served cluster's channel shares.
 */
final class OffLoopListener implements ChannelListener {
  private final ChannelListener target;
  private final Executor executor;
  private final Queue<Runnable> pending = new ArrayDeque<>();
  private boolean draining;

  OffLoopListener(ChannelListener target, Executor executor) {
    this.target = target;
    this.executor = executor;
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
    synchronized (pending) {
      pending.add(event);
      if (draining) {
        return;
      }
      draining = true;
    }
    executor.execute(this::drain);
  }

  private void drain() {
    while (true) {
      Runnable next;
      synchronized (pending) {
        next = pending.poll();
        if (next == null) {
          draining = false;
          return;
        }
      }
      try {
        next.run();
      } catch (RuntimeException e) {
        // one bad event must not stop this cluster's later ones
        org.slf4j.LoggerFactory.getLogger(OffLoopListener.class).error("channel event not handled", e);
      }
    }
  }
}
