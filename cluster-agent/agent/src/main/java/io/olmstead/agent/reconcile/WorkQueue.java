package io.olmstead.agent.reconcile;

import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A de-duplicating work queue in the manner of client-go's: a key queued many times is processed
 * once; a key is never handed to two workers at once; a key added while being processed is
 * processed again afterwards.
 */
public final class WorkQueue implements AutoCloseable {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition ready = lock.newCondition();
  private final Set<String> queued = new LinkedHashSet<>();
  private final Set<String> processing = new HashSet<>();
  private final Set<String> dirty = new HashSet<>();
  private final ScheduledExecutorService delays;
  private final boolean ownDelays;
  private final Runnable onQueued;
  private boolean closed;

  public WorkQueue(String name) {
    this.delays =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, name + "-delays");
              t.setDaemon(true);
              return t;
            });
    this.ownDelays = true;
    this.onQueued = () -> {};
  }

  /**
   * A queue whose delayed adds run on {@code sharedDelays} (not shut down by {@link #close}) and
   * which calls {@code onQueued} (outside its lock) whenever a key becomes queued, for a consumer
   * that is not a waiting thread.
   */
  WorkQueue(ScheduledExecutorService sharedDelays, Runnable onQueued) {
    this.delays = sharedDelays;
    this.ownDelays = false;
    this.onQueued = onQueued;
  }

  /**
   * Queues {@code key} unless it is already queued; marks it for another pass when it is being
   * processed.
   */
  public void add(String key) {
    boolean queuedNow = false;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      if (processing.contains(key)) {
        dirty.add(key);
      } else if (queued.add(key)) {
        ready.signal();
        queuedNow = true;
      }
    } finally {
      lock.unlock();
    }
    if (queuedNow) {
      onQueued.run();
    }
  }

  /** Queues {@code key} after {@code delay}. */
  public void addAfter(String key, Duration delay) {
    if (delay.isZero() || delay.isNegative()) {
      add(key);
      return;
    }
    lock.lock();
    try {
      if (!closed) {
        try {
          delays.schedule(() -> add(key), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
          // the shared timer is shutting down with its replica
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next key to process, waiting up to {@code timeout}; the caller must call {@link #done} with
   * it.
   */
  public Optional<String> take(Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lock();
    try {
      while (queued.isEmpty() && !closed) {
        if (nanos <= 0) {
          return Optional.empty();
        }
        nanos = ready.awaitNanos(nanos);
      }
      if (closed) {
        return Optional.empty();
      }
      Iterator<String> first = queued.iterator();
      String key = first.next();
      first.remove();
      processing.add(key);
      return Optional.of(key);
    } finally {
      lock.unlock();
    }
  }

  /** Ends processing of {@code key}; re-queues it when it was added meanwhile. */
  public void done(String key) {
    boolean queuedNow = false;
    lock.lock();
    try {
      processing.remove(key);
      if (dirty.remove(key) && !closed && queued.add(key)) {
        ready.signal();
        queuedNow = true;
      }
    } finally {
      lock.unlock();
    }
    if (queuedNow) {
      onQueued.run();
    }
  }

  /** Whether a key waits to be taken. */
  boolean hasQueued() {
    lock.lock();
    try {
      return !queued.isEmpty() && !closed;
    } finally {
      lock.unlock();
    }
  }

  /** Keys queued or being processed (for tests and metrics). */
  public int depth() {
    lock.lock();
    try {
      return queued.size() + processing.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      ready.signalAll();
    } finally {
      lock.unlock();
    }
    if (ownDelays) {
      delays.shutdownNow();
    }
  }
}
