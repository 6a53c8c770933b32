package io.olmstead.agent.reconcile;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster's ordered lane on shared workers: tasks run one at a time in the order given, and
 * after each one the lane goes to the back of the shared queue, so lanes take turns and a cluster
 * with much work does not hold a worker while others wait.
 */
public final class SerialLane implements Executor {
  private static final Logger LOG = LoggerFactory.getLogger(SerialLane.class);
  private final Executor shared;
  private final Queue<Runnable> tasks = new ArrayDeque<>();
  private boolean scheduled;
  private boolean closed;

  public SerialLane(Executor shared) {
    this.shared = shared;
  }

  @Override
  public void execute(Runnable task) {
    synchronized (this) {
      if (closed) {
        throw new RejectedExecutionException("lane closed");
      }
      tasks.add(task);
      if (scheduled) {
        return;
      }
      scheduled = true;
    }
    submitTurn();
  }

  private void turn() {
    Runnable next;
    synchronized (this) {
      next = tasks.poll();
      if (next == null) {
        scheduled = false;
        return;
      }
    }
    try {
      next.run();
    } catch (RuntimeException e) {
      LOG.error("task failed", e); // one bad task must not stop this lane's later ones
    }
    synchronized (this) {
      if (tasks.isEmpty() || closed) {
        scheduled = false;
        return;
      }
    }
    submitTurn(); // to the back of the shared queue: other lanes take their turn first
  }

  private void submitTurn() {
    try {
      shared.execute(this::turn);
    } catch (RejectedExecutionException e) {
      synchronized (this) { // the shared workers are shutting down: nothing will run again
        scheduled = false;
        tasks.clear();
      }
    }
  }

  /** Drops the tasks not started; the one running finishes. */
  synchronized void close() {
    closed = true;
    tasks.clear();
  }
}
