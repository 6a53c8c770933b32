package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.image.ImageReferences;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs blocking registry work off the event loop on a pool of {@code workers} threads. Work waits
 * in its registry host's queue, holding no thread, until a worker is free and its registry is below
 * its share ({@code OLMSTEAD_REGISTRY_CONCURRENCY}, and never every worker: see {@link
 * RegistryQueues}); hosts take turns. Every operation has a deadline ({@code
 * OLMSTEAD_REGISTRY_TIMEOUT_SECONDS}, from when a worker takes it): past it the operation's sockets
 * are closed and its thread interrupted. Each operation gets its own {@link OciPuller}, closed
 * after it; closing the pool aborts the running ones and fails the queued ones.
 */
public final class RegistryPool implements AutoCloseable {

  /**
   * One registry operation, given the puller it must use (the deadline closes that puller's
   * connections).
   */
  @FunctionalInterface
  public interface Work<T> {
    T run(OciPuller puller) throws Exception;
  }

  private final Vertx vertx;
  private final RegistrySettings settings;
  private final RegistryMetrics metrics;
  private final WorkerExecutor executor;
  private final ScheduledThreadPoolExecutor deadlines;
  private final RegistryQueues<Job<?>> queues;
  private final Set<Deadline> running = ConcurrentHashMap.newKeySet();
  private boolean closed;

  /** {@code metrics}: counts every operation that ran, by registry host and outcome. */
  public RegistryPool(
      Vertx vertx, RegistrySettings settings, RegistryMetrics metrics, String name, int workers) {
    this.vertx = vertx;
    this.settings = settings;
    this.metrics = metrics;
    this.executor = vertx.createSharedWorkerExecutor(name, workers);
    // closing sockets may block (TLS close): never on an event loop, so a thread of its own
    this.deadlines =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, name + "-deadline");
              t.setDaemon(true);
              return t;
            });
    deadlines.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    this.queues = new RegistryQueues<>(workers, settings.perRegistryConcurrency());
  }

  /**
   * Runs {@code work} on a registry worker, within the share of the registry of {@code reference}.
   */
  public <T> Future<T> call(String reference, Work<T> work) {
    return call(reference, () -> {}, work);
  }

  /** As {@link #call(String, Work)}; {@code started} runs on the worker when it takes the work. */
  public <T> Future<T> call(String reference, Runnable started, Work<T> work) {
    Job<T> job =
        new Job<>(
            registryOf(reference), started, work, vertx.getOrCreateContext(), Promise.promise());
    synchronized (queues) {
      if (closed) {
        return Future.failedFuture(new IllegalStateException("registry pool closed"));
      }
      queues.add(job.host, job);
    }
    dispatch();
    return job.result.future();
  }

  /** Starts every queued operation that may run now. */
  private void dispatch() {
    List<Job<?>> now = new ArrayList<>();
    synchronized (queues) {
      for (Optional<RegistryQueues.Taken<Job<?>>> t = queues.next();
          t.isPresent();
          t = queues.next()) {
        now.add(t.get().item());
      }
    }
    now.forEach(this::start);
  }

  private <T> void start(Job<T> job) {
    executor
        .<T>executeBlocking(
            () -> {
              job.started.run();
              return withDeadline(job.host, job.work);
            },
            false)
        .onComplete(
            ar -> {
              synchronized (queues) {
                queues.done(job.host);
              }
              metrics.request(job.host, ar.cause());
              dispatch();
              job.complete(ar);
            });
  }

  private <T> T withDeadline(String host, Work<T> work) throws Exception {
    Deadline deadline = new Deadline(Thread.currentThread(), new OciPuller(settings));
    running.add(deadline);
    ScheduledFuture<?> timer =
        deadlines.schedule(deadline::expire, settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
    try {
      return work.run(deadline.puller);
    } catch (Exception | Error e) {
      if (deadline.expired()) {
        throw JibErrors.unreachable(host);
      }
      throw e;
    } finally {
      running.remove(deadline);
      timer.cancel(false);
      deadline.finish();
      deadline.puller.close();
    }
  }

  /** The registry host of a reference ({@code docker.io} when it names none, as docker does). */
  static String registryOf(String reference) {
    return ImageReferences.registryOf(reference);
  }

  @Override
  public void close() {
    List<Job<?>> waiting;
    synchronized (queues) {
      closed = true;
      waiting = queues.clear();
    }
    IllegalStateException closing = new IllegalStateException("registry pool closed");
    waiting.forEach(j -> j.complete(Future.failedFuture(closing)));
    running.forEach(d -> deadlines.execute(d::expire));
    executor.close();
    deadlines.shutdown();
  }

  /** A queued operation and where its caller waits for it (answered on the caller's context). */
  private record Job<T>(
      String host, Runnable started, Work<T> work, Context context, Promise<T> result) {
    void complete(AsyncResult<?> outcome) {
      @SuppressWarnings("unchecked")
      AsyncResult<T> typed = (AsyncResult<T>) outcome;
      context.runOnContext(v -> result.handle(typed));
    }
  }

  /**
   * The running operation's thread and puller; expiring interrupts the one and aborts the other,
   * once.
   */
  private static final class Deadline {
    private final Thread runner;
    private final OciPuller puller;
    private boolean running = true;
    private boolean expired;

    Deadline(Thread runner, OciPuller puller) {
      this.runner = runner;
      this.puller = puller;
    }

    void expire() {
      synchronized (this) {
        if (!running) {
          return;
        }
        expired = true;
        runner.interrupt();
      }
      puller.abort();
    }

    synchronized boolean expired() {
      return expired;
    }

    void finish() {
      synchronized (this) {
        running = false;
      }
      Thread.interrupted(); // an expiry's interrupt must not reach the worker's next task
    }
  }
}
