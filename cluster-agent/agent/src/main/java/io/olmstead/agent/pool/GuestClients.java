package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.olmstead.agent.config.KubernetesClients;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the fabric8 clients of every guest a pool replica serves on shared parts: one Vert.x
 * (event loops), one serialization (its object mapper and type caches) and one executor for
 * informer callbacks (and the served clusters' channel events, {@link OffLoopListener}), so a
 * served cluster costs its connections and caches, not a set of threads and mappers of its own.
 */
final class GuestClients implements AutoCloseable {
  private final Vertx vertx;
  private final VertxHttpClientFactory http;
  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final ExecutorService callbacks;
  private final ScheduledExecutorService starter;
  private final ScheduledExecutorService inventory;

  /**
   * Its own Vert.x, apart from the channels': the reconcile code makes blocking fabric8 calls from
   * channel callbacks, which would wait forever for an event loop they hold.
   */
  GuestClients(int eventLoops) {
    this.vertx =
        Vertx.vertx(
            new VertxOptions().setEventLoopPoolSize(eventLoops).setPreferNativeTransport(false));
    this.http = new VertxHttpClientFactory(vertx);
    AtomicInteger n = new AtomicInteger();
    // cached, not fixed: informer start-up blocks in these tasks, and a few fixed threads shared by
    // every guest's
    // informers starve each other
    this.callbacks =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "guest-callbacks-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    // a few threads start every guest (facts, channel, informers), so a takeover of hundreds does
    // not make hundreds
    // of threads, and a guest that is slow to answer holds one of them for at most its bounded
    // timeouts
    AtomicInteger s = new AtomicInteger();
    this.starter =
        Executors.newScheduledThreadPool(
            STARTERS,
            r -> {
              Thread t = new Thread(r, "guest-starter-" + s.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    // every served guest's inventory is collected on these few threads, one guest at a time each
    AtomicInteger i = new AtomicInteger();
    this.inventory =
        Executors.newScheduledThreadPool(
            INVENTORY_THREADS,
            r -> {
              Thread t = new Thread(r, "guest-inventory-" + i.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  static final int STARTERS = 8;
  static final int INVENTORY_THREADS = 2;

  /** A client to one guest API from its kubeconfig text (a bad kubeconfig throws). */
  KubernetesClient forKubeconfig(String kubeconfig) {
    Config config = KubernetesClients.parse(kubeconfig);
    // fabric8 retries a call that got no answer 10 times with doubling waits (about 100 s in all):
    // against a paused
    // or stopped guest that would hold a starter thread for minutes; the reconcile loop has its own
    // backoff instead
    config.setRequestRetryBackoffLimit(2);
    config.setConnectionTimeout(5_000);
    return build(config);
  }

  KubernetesClient build(Config config) {
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(http)
        .withKubernetesSerialization(serialization)
        .withTaskExecutor(callbacks)
        .build();
  }

  /** The threads that start guests and retry the ones that cannot be reached (bounded delays). */
  ScheduledExecutorService starter() {
    return starter;
  }

  /** The threads that collect the served guests' inventories (one inventory reporter per guest). */
  ScheduledExecutorService inventory() {
    return inventory;
  }

  /** The same threads, for handing channel events to the reconcile loops off the event loop. */
  Executor events() {
    return callbacks;
  }

  @Override
  public void close() {
    starter.shutdownNow();
    inventory.shutdownNow();
    callbacks.shutdownNow();
    vertx.close();
  }
}
