package io.olmstead.controlplane.registry;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Runs blocking registry work off the event loop: a worker pool of {@code workers} threads, and at most
 * {@code perRegistryConcurrency} calls at once against one registry host, so one slow registry cannot take every
 * worker and a fleet's requests do not hammer a registry.
 */
public final class RegistryPool implements AutoCloseable {

  private final WorkerExecutor executor;
  private final int perRegistry;
  private final Map<String, Semaphore> limits = new ConcurrentHashMap<>();

  public RegistryPool(Vertx vertx, RegistrySettings settings) {
    this.executor = vertx.createSharedWorkerExecutor("olmstead-registry", settings.workers());
    this.perRegistry = settings.perRegistryConcurrency();
  }

  /** Runs {@code work} on a registry worker, within the limit of the registry of {@code reference}. */
  public <T> Future<T> call(String reference, Callable<T> work) {
    String host = registryOf(reference);
    return executor.executeBlocking(() -> {
      Semaphore s = limits.computeIfAbsent(host, h -> new Semaphore(perRegistry, true));
      s.acquire();
      try {
        return work.call();
      } finally {
        s.release();
      }
    }, false);
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
  }
}
