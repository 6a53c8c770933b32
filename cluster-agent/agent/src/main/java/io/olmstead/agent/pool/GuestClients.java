package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the fabric8 clients of every guest a pool replica serves on shared parts: one Vert.x (event loops), one
 * serialization (its object mapper and type caches) and one executor for informer callbacks (and the served
 * clusters' channel events, {@link OffLoopListener}), so a served cluster costs its connections and caches, not a set
 * of threads and mappers of its own.
 */
final class GuestClients implements AutoCloseable {
  private final Vertx vertx;
  private final VertxHttpClientFactory http;
  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final ExecutorService callbacks;

  /**
   * Its own Vert.x, apart from the channels': the reconcile code makes blocking fabric8 calls from channel callbacks,
   * which would wait forever for an event loop they hold.
   */
  GuestClients(int eventLoops) {
    this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(eventLoops).setPreferNativeTransport(false));
    this.http = new VertxHttpClientFactory(vertx);
    AtomicInteger n = new AtomicInteger();
    // cached, not fixed: informer start-up blocks in these tasks, and a few fixed threads shared by every guest's
    // informers starve each other
    this.callbacks = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "guest-callbacks-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** A client to one guest API from its kubeconfig text (a bad kubeconfig throws). */
  KubernetesClient forKubeconfig(String kubeconfig) {
    return build(Config.fromKubeconfig(kubeconfig));
  }

  KubernetesClient build(Config config) {
    return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(http)
        .withKubernetesSerialization(serialization).withTaskExecutor(callbacks).build();
  }

  /** The same threads, for handing channel events to the reconcile loops off the event loop. */
  java.util.concurrent.Executor events() {
    return callbacks;
  }

  @Override
  public void close() {
    callbacks.shutdownNow();
    vertx.close();
  }
}
