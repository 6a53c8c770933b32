package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.agent.pool.PoolReplica;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmarks (run with {@code -Dolmstead.bench=true}) of the hosted agent pool. Everything is in
 * this JVM (control plane, management and guest mock APIs: all guests are one mock server, each
 * cluster with its own client and informers).
 *
 * <ul>
 *   <li>{@link #heapPerServedCluster} ({@code -Dolmstead.bench.clusters=N}, default 50): heap after
 *       GC with the N clusters served minus heap before the replica started, divided by N: an upper
 *       bound, since it includes the control plane's sessions for those agents and the mock
 *       server's watches.
 *   <li>{@link #takeoverOfALostReplicasClusters} ({@code -Dolmstead.bench.takeover=N}, default
 *       500): two replicas serve N clusters; the one serving more is closed; the time until the
 *       other serves all N with every channel connected.
 * </ul>
 */
class PoolHeapBenchIT {
  private static final String ASSIGN_SECONDS = "2";

  @Test
  void heapPerServedCluster() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int n = Integer.getInteger("olmstead.bench.clusters", 50);
    try (Fleet fleet = Fleet.start(n)) {
      long before = usedHeapAfterGc();
      long started = System.nanoTime();
      try (PoolReplica replica = fleet.replica("pool-0")) {
        await()
            .atMost(Duration.ofMinutes(10))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () ->
                    replica.served().size() == n
                        && replica.served().stream().allMatch(replica::connected));
        double seconds = (System.nanoTime() - started) / 1e9;
        Thread.sleep(10_000); // at rest
        long after = usedHeapAfterGc();
        System.out.printf(
            "POOL BENCH clusters=%d served-and-connected-in=%.1fs heap-before=%.1fMiB "
                + "heap-after=%.1fMiB per-cluster=%.2fMiB threads=%d%n",
            n,
            seconds,
            before / 1048576.0,
            after / 1048576.0,
            (after - before) / 1048576.0 / n,
            Thread.activeCount());
        assertThat(after).isGreaterThan(0);
      }
    }
  }

  @Test
  void takeoverOfALostReplicasClusters() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int n = Integer.getInteger("olmstead.bench.takeover", 500);
    try (Fleet fleet = Fleet.start(n)) {
      PoolReplica first = fleet.replica("pool-0");
      PoolReplica second = fleet.replica("pool-1");
      try {
        await()
            .atMost(Duration.ofMinutes(10))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () ->
                    first.served().size() + second.served().size() == n
                        && first.served().stream().allMatch(first::connected)
                        && second.served().stream().allMatch(second::connected));
        PoolReplica lost = first.served().size() >= second.served().size() ? first : second;
        PoolReplica survivor = lost == first ? second : first;
        int moved = lost.served().size();
        long started = System.nanoTime();
        lost.close();
        await()
            .atMost(Duration.ofMinutes(10))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () ->
                    survivor.served().size() == n
                        && survivor.served().stream().allMatch(survivor::connected));
        System.out.printf(
            "POOL BENCH takeover clusters=%d moved=%d all-served-and-connected-in=%.1fs "
                + "(assign rounds every %s s)%n",
            n, moved, (System.nanoTime() - started) / 1e9, ASSIGN_SECONDS);
        assertThat(moved).isPositive();
      } finally {
        first.close();
        second.close();
      }
    }
  }

  /**
   * A control plane with N enrolled hosted clusters whose guests are one mock API, and a pool
   * token.
   */
  record Fleet(
      KubernetesMockServer managementServer,
      KubernetesMockServer guestServer,
      KubernetesClient management,
      TestControlPlane cp,
      String token)
      implements AutoCloseable {
    static Fleet start(int n) throws Exception {
      KubernetesMockServer managementServer = PoolFixtures.crudServer();
      KubernetesMockServer guestServer = PoolFixtures.crudServer();
      KubernetesClient management = managementServer.createClient();
      PoolFixtures.prepareManagement(management);
      String guest = guestServer.createClient().getMasterUrl().toString();
      Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
      Files.writeString(kubeconfig, PoolFixtures.kubeconfig(management.getMasterUrl().toString()));
      TestControlPlane cp =
          TestControlPlane.start(
              TestDatabase.create(PoolHeapBenchIT.class),
              Map.of(
                  HypershiftSettings.MANAGEMENT_KUBECONFIG,
                  kubeconfig.toString(),
                  PoolSettings.ASSIGN_SECONDS,
                  ASSIGN_SECONDS));
      for (int i = 0; i < n; i++) {
        PoolFixtures.hostedCluster(management, "hc-" + i, guest, guest);
      }
      await()
          .atMost(Duration.ofMinutes(10))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> enrolled(cp) >= n);
      return new Fleet(managementServer, guestServer, management, cp, PoolFixtures.poolToken(cp));
    }

    PoolReplica replica(String name) throws Exception {
      return PoolReplica.start(
          PoolConfig.fromMap(
              Map.of(
                  PoolConfig.CONTROL_PLANE_URL,
                  cp.baseUrl(),
                  PoolConfig.POOL_TOKEN,
                  token,
                  PoolConfig.REPLICA,
                  name)),
          management);
    }

    @Override
    public void close() {
      cp.close();
      management.close();
      managementServer.destroy();
      guestServer.destroy();
    }
  }

  /** Hosted clusters enrolled, counted in the database (the API pages at 500). */
  private static int enrolled(TestControlPlane cp) throws Exception {
    return cp.controlPlane()
        .pool()
        .query("SELECT count(*) FROM hosted_clusters WHERE retired_at IS NULL")
        .execute()
        .map(rows -> rows.iterator().next().getInteger(0))
        .toCompletionStage()
        .toCompletableFuture()
        .get(30, java.util.concurrent.TimeUnit.SECONDS);
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(500);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
