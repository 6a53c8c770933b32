package io.olmstead.controlplane.registry;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs blocking registry work off the event loop: a worker pool of {@code workers} threads, at most
 * {@code perRegistryConcurrency} calls at once against one registry host, and a deadline on every operation
 * ({@code OLMSTEAD_REGISTRY_TIMEOUT_SECONDS}, from when a worker takes it): past it the operation's sockets are closed
 * and its thread interrupted, so a registry that accepts connections and never answers (or refuses them) holds a
 * worker no longer than the deadline. Each operation gets its own {@link OciPuller}, closed after it.
 */
public final class RegistryPool implements AutoCloseable {

  /** One registry operation, given the puller it must use (the deadline closes that puller's connections). */
  @FunctionalInterface
  public interface Work<T> {
    T run(OciPuller puller) throws Exception;
  }

  private final RegistrySettings settings;
  private final WorkerExecutor executor;
  private final ScheduledExecutorService deadlines;
  private final int perRegistry;
  private final Map<String, Semaphore> limits = new ConcurrentHashMap<>();

  public RegistryPool(Vertx vertx, RegistrySettings settings, String name, int workers) {
    this.settings = settings;
    this.executor = vertx.createSharedWorkerExecutor(name, workers);
    // closing sockets may block (TLS close): never on an event loop, so a thread of its own
    this.deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name + "-deadline");
      t.setDaemon(true);
      return t;
    });
    this.perRegistry = settings.perRegistryConcurrency();
  }

  /** Runs {@code work} on a registry worker, within the limit of the registry of {@code reference}. */
  public <T> Future<T> call(String reference, Work<T> work) {
    return call(reference, () -> { }, work);
  }

  /** As {@link #call(String, Work)}; {@code started} runs on the worker when it takes the work. */
  public <T> Future<T> call(String reference, Runnable started, Work<T> work) {
    String host = registryOf(reference);
    return executor.executeBlocking(() -> {
      Semaphore s = limits.computeIfAbsent(host, h -> new Semaphore(perRegistry, true));
      s.acquire();
      try {
        started.run();
        return withDeadline(host, work);
      } finally {
        s.release();
      }
    }, false);
  }

  private <T> T withDeadline(String host, Work<T> work) throws Exception {
    Deadline deadline = new Deadline(Thread.currentThread(), new OciPuller(settings));
    ScheduledFuture<?> timer = deadlines.schedule(deadline::expire, settings.timeout().toMillis(),
        TimeUnit.MILLISECONDS);
    try {
      return work.run(deadline.puller);
    } catch (Exception | Error e) {
      if (deadline.expired()) {
        throw JibErrors.unreachable(host);
      }
      throw e;
    } finally {
      timer.cancel(false);
      deadline.finish();
      deadline.puller.close();
    }
  }

  /** The registry host of a reference ({@code docker.io} when it names none, as docker does). */
  static String registryOf(String reference) {
    int slash = reference.indexOf('/');
    if (slash < 0) {
      return "docker.io";
    }
    String first = reference.substring(0, slash);
    return first.contains(".") || first.contains(":") || first.equals("localhost") ? first : "docker.io";
  }

  @Override
  public void close() {
    executor.close();
    deadlines.shutdownNow();
  }

  /** The running operation's thread and puller; expiring interrupts the one and aborts the other, once. */
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
