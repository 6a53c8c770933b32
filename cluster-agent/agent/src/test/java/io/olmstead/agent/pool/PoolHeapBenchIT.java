package io.olmstead.agent.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.reconcile.GuestReachability;
import io.olmstead.agent.reconcile.ReconcileThreads;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.agent.reconcile.SubscriptionStatus;
import io.olmstead.agent.reconcile.SubscriptionToReconcile;
import io.olmstead.agent.sim.DiscoveringCrudDispatcher;
import io.olmstead.agent.sim.KubeletStandIn;
import io.olmstead.agent.testing.PlusCatalogs;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Benchmark (run with {@code -Dolmstead.bench=true}; {@code -Dolmstead.bench.clusters=N}, default
 * 1000): a pool replica's live heap per hosted cluster with cert-manager 1.16.5 installed on every
 * one. Each guest is its own mock API server in this JVM; the pool's share is the live heap (after
 * GC) with every hosted agent running and at rest minus the live heap once they are stopped
 * (guests, their stored objects and the shared catalog cache stay), divided by N. Goal: under 0.5
 * MiB per cluster.
 */
class PoolHeapBenchIT {
  private static final Logger LOG = LoggerFactory.getLogger(PoolHeapBenchIT.class);
  private static final long GOAL = 512L * 1024;
  private static final SubscriptionToReconcile CERT_MANAGER =
      PlusCatalogs.allNamespaces("cm", "cert-manager", "stable", "cert-manager", "1.16.5");

  @Test
  void aReplicaServingManyClustersWithCertManagerKeepsUnderHalfAMebibytePerCluster()
      throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int n = Integer.getInteger("olmstead.bench.clusters", 1000);
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver").setLevel(Level.WARNING);
    List<KubernetesMockServer> servers = new ArrayList<>();
    List<KubernetesClient> clients = new ArrayList<>();
    List<KubeletStandIn> kubelets = new ArrayList<>();
    List<HostedAgent> agents = new ArrayList<>();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    Vertx vertx = Vertx.vertx();
    GuestClients guests = new GuestClients(2);
    ReconcileThreads reconcile = ReconcileThreads.create("pool", 4);
    URI nowhere =
        URI.create(
            "http://127.0.0.1:9"); // no control plane: desired state is handed to each reconciler
    HostedAgent.Shared shared =
        new HostedAgent.Shared(
            nowhere,
            vertx,
            vertx.createHttpClient(),
            vertx.createWebSocketClient(),
            PlusCatalogs.provider(),
            guests,
            new ReconcilerOptions(1, Duration.ofMinutes(5), true),
            guests.events(),
            guests.starter(),
            reconcile,
            InventoryReporter.INTERVAL);
    try {
      for (int i = 0; i < n; i++) {
        KubernetesMockServer server =
            new KubernetesMockServer(
                new Context(),
                new MockWebServer(),
                new HashMap<>(),
                new DiscoveringCrudDispatcher(),
                false);
        server.init();
        servers.add(server);
        KubernetesClient client = server.createClient();
        clients.add(client);
        // ticked by one thread for all guests (started, each would have a thread of its own)
        kubelets.add(
            new KubeletStandIn(
                "guest-" + i,
                new ResourceOperator(client, new ResourceKinds()),
                Duration.ofMillis(200),
                false));
      }
      ticker.scheduleWithFixedDelay(
          () ->
              kubelets.forEach(
                  k -> {
                    try {
                      k.tick();
                    } catch (RuntimeException e) {
                      // a round that failed is done again at the next tick
                    }
                  }),
          200,
          300,
          TimeUnit.MILLISECONDS);
      long guestsOnly = usedHeap();

      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        HostedTarget target =
            new HostedTarget("clusters-hc-" + i, "clusters", "hc-" + i, "clusters-hc-" + i);
        String kubeconfig = kubeconfig(clients.get(i).getMasterUrl().toString());
        agents.add(
            HostedAgent.start(
                shared,
                target,
                "olm_agent_bench-" + i,
                new GuestKubeconfigs.Access(
                    target.controlPlaneNamespace(), GuestKubeconfigs.SERVICE_NETWORK, kubeconfig),
                new GuestReachability(target.cluster())));
      }
      await()
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> agents.stream().allMatch(HostedAgent::reconciling));
      agents.forEach(a -> a.reconciler().setDesired(1, List.of(CERT_MANAGER)));
      await()
          .atMost(Duration.ofMinutes(30))
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () ->
                  agents.stream()
                      .allMatch(
                          a ->
                              a.reconciler()
                                  .status("cm")
                                  .map(SubscriptionStatus::phase)
                                  .filter("Succeeded"::equals)
                                  .isPresent()));
      long installSeconds = (System.nanoTime() - start) / 1_000_000_000;
      ticker.shutdownNow();
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> agents.stream().allMatch(a -> a.reconciler().queueDepth() == 0));
      long withPool = usedHeap();
      if (Boolean.getBoolean("olmstead.bench.pause")) {
        LOG.info(
            "BENCH paused for a heap histogram: jcmd {} GC.class_histogram",
            ProcessHandle.current().pid());
        Thread.sleep(60_000);
      }
      agents.forEach(HostedAgent::stop);
      agents.clear();
      long withoutPool = usedHeap();
      if (Boolean.getBoolean("olmstead.bench.pause")) {
        LOG.info(
            "BENCH paused again, the agents stopped: jcmd {} GC.class_histogram",
            ProcessHandle.current().pid());
        Thread.sleep(60_000);
      }
      long perCluster = (withPool - withoutPool) / n;
      LOG.info(
          "BENCH pool heap: {} clusters with cert-manager 1.16.5 Succeeded in {} s; live heap guests only {} MiB, "
              + "with the pool's agents {} MiB, after stopping them {} MiB; per cluster {} KiB",
          n,
          installSeconds,
          mib(guestsOnly),
          mib(withPool),
          mib(withoutPool),
          perCluster / 1024);
      assertThat(perCluster).isLessThan(GOAL);
    } finally {
      ticker.shutdownNow();
      agents.forEach(HostedAgent::stop);
      reconcile.close();
      guests.close();
      vertx.close();
      kubelets.forEach(KubeletStandIn::close);
      clients.forEach(KubernetesClient::close);
      servers.forEach(KubernetesMockServer::destroy);
    }
  }

  private static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200); // benchmark: let the collector finish
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static long mib(long bytes) {
    return bytes / (1024 * 1024);
  }

  private static String kubeconfig(String server) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: guest\n  cluster:\n    server: "
        + server
        + "\ncontexts:\n- name: guest\n  context:\n    cluster: guest\n    user: admin\ncurrent-context: guest\n"
        + "users:\n- name: admin\n  user:\n    token: not-checked\n";
  }
}
