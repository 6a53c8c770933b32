package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.agent.pool.PoolReplica;
import io.olmstead.controlplane.hypershift.HypershiftSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}, {@code -Dolmstead.bench.clusters=N}, default 50): heap of one
 * pool replica serving N hosted clusters at rest. Everything is in this JVM (control plane, management and guest mock
 * APIs: all N guests are one mock server, each cluster with its own client and informers), so the figure, heap after
 * GC with the clusters served minus heap before the replica started, divided by N, is an upper bound: it includes the
 * control plane's sessions for those agents and the mock server's watches.
 */
class PoolHeapBenchIT {
  @Test
  void heapPerServedCluster() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int n = Integer.getInteger("olmstead.bench.clusters", 50);
    KubernetesMockServer managementServer = PoolFixtures.crudServer();
    KubernetesMockServer guestServer = PoolFixtures.crudServer();
    KubernetesClient management = managementServer.createClient();
    PoolFixtures.prepareManagement(management);
    String guest = guestServer.createClient().getMasterUrl().toString();
    Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(kubeconfig, PoolFixtures.kubeconfig(management.getMasterUrl().toString()));
    try (TestControlPlane cp = TestControlPlane.start(TestDatabase.create(PoolHeapBenchIT.class), Map.of(
        HypershiftSettings.MANAGEMENT_KUBECONFIG, kubeconfig.toString(), PoolSettings.ASSIGN_SECONDS, "2"))) {
      for (int i = 0; i < n; i++) {
        PoolFixtures.hostedCluster(management, "hc-" + i, guest, guest);
      }
      String token = new io.olmstead.controlplane.http.ApiClient(cp).json("POST", "/api/v1/pool-tokens",
          TestControlPlane.ADMIN_TOKEN, new io.vertx.core.json.JsonObject().put("name", "bench")).json()
          .getString("token");
      await().atMost(Duration.ofMinutes(5)).until(() -> enrolled(cp) >= n);
      long before = usedHeapAfterGc();
      long started = System.nanoTime();
      try (PoolReplica replica = PoolReplica.start(PoolConfig.fromMap(Map.of(PoolConfig.CONTROL_PLANE_URL,
          cp.baseUrl(), PoolConfig.POOL_TOKEN, token, PoolConfig.REPLICA, "pool-0")), management)) {
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(1)).until(() ->
            replica.served().size() == n && replica.served().stream().allMatch(replica::connected));
        double seconds = (System.nanoTime() - started) / 1e9;
        Thread.sleep(10_000); // at rest
        long after = usedHeapAfterGc();
        System.out.printf("POOL BENCH clusters=%d served-and-connected-in=%.1fs heap-before=%.1fMiB "
            + "heap-after=%.1fMiB per-cluster=%.2fMiB threads=%d%n", n, seconds, before / 1048576.0,
            after / 1048576.0, (after - before) / 1048576.0 / n, Thread.activeCount());
        assertThat(after).isGreaterThan(0);
      }
    } finally {
      management.close();
      managementServer.destroy();
      guestServer.destroy();
    }
  }

  private static int enrolled(TestControlPlane cp) {
    return new io.olmstead.controlplane.http.ApiClient(cp).get("/api/v1/clusters?limit=500&selector="
        + "olmstead.io/source%3Dhypershift", TestControlPlane.ADMIN_TOKEN).items().size();
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(500);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
