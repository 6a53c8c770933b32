package io.olmstead.controlplane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.dev.DevHypershift;
import io.olmstead.controlplane.dev.SimulatedManagementCluster;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}): enrollment latency of hosted clusters, from
 * {@code Available=True} (the condition's lastTransitionTime the simulated HyperShift operator
 * writes) to the cluster {@code connected} (first seen so through {@code GET /clusters}, polled
 * every 100 ms), for N HostedClusters ({@code -Dolmstead.bench.hosted}, default 100) created at
 * once on the simulated management cluster of {@code dev --simulate-hypershift} and turning
 * Available together 3 s later. One JVM holds the control plane (embedded PostgreSQL), the real
 * watcher, the simulated operator, N guest APIs and N simulated hosted agents.
 */
class HostedConnectBenchIT {
  private static final Duration VERSION_DELAY = Duration.ofSeconds(3);
  private static final long DEADLINE_NANOS = Duration.ofMinutes(3).toNanos();

  @Test
  void availableToConnectedLatency() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int count = Integer.getInteger("olmstead.bench.hosted", 100);
    try (DevHypershift sim =
            DevHypershift.start(
                Files.createTempDirectory("hosted-bench"),
                HypershiftFixtures.dir(),
                1,
                VERSION_DELAY,
                Duration.ofSeconds(2));
        TestControlPlane cp =
            TestControlPlane.start(
                TestDatabase.create(HostedConnectBenchIT.class),
                Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, sim.kubeconfig().toString()))) {
      sim.connectAgents(cp.controlPlane().pool(), URI.create(cp.baseUrl()));
      ApiClient api = new ApiClient(cp);
      // warm-up: hc-01 connected means the watcher watches and the whole path works
      assertThat(connectedWithin(api, List.of("clusters-hc-01"), new HashMap<>())).isTrue();
      var hostedClusters =
          sim.management()
              .client()
              .genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
              .inNamespace(SimulatedManagementCluster.NAMESPACE);
      List<String> names = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String name = String.format("bench-%03d", i);
        names.add("clusters-" + name);
        hostedClusters
            .resource(
                SimulatedManagementCluster.hostedCluster(
                    name,
                    Map.of("bench", "true"),
                    null,
                    SimulatedManagementCluster.DEFAULT_RELEASE_IMAGE))
            .create();
      }
      Map<String, Long> connectedAt = new HashMap<>();
      boolean all = connectedWithin(api, names, connectedAt);
      List<Double> millis = new ArrayList<>();
      for (String cluster : names) {
        GenericKubernetesResource hc =
            hostedClusters.withName(cluster.substring("clusters-".length())).get();
        Instant available = availableSince(hc);
        if (available != null && connectedAt.containsKey(cluster)) {
          millis.add((connectedAt.get(cluster) - available.toEpochMilli()) / 1.0);
        }
      }
      Collections.sort(millis);
      System.out.printf(
          "BENCH hosted clusters %d, connected %d; Available=True -> connected: p50 %.0f ms, p99 %.0f ms,"
              + " max %.0f ms (goal p99 < 10000 ms)%n",
          count, millis.size(), pct(millis, 0.50), pct(millis, 0.99), pct(millis, 1.0));
      assertThat(all).as("every hosted cluster connected within 3 minutes").isTrue();
      assertThat(millis).hasSize(count);
    }
  }

  /**
   * Polls the cluster list until every name is connected (recording when each was first seen so) or
   * the deadline.
   */
  private static boolean connectedWithin(
      ApiClient api, List<String> names, Map<String, Long> connectedAt)
      throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE_NANOS;
    while (System.nanoTime() < deadline) {
      ApiClient.Response page =
          api.get(
              "/api/v1/clusters?limit=500&selector=olmstead.io/source%3Dhypershift",
              TestControlPlane.ADMIN_TOKEN);
      long now = System.currentTimeMillis();
      if (page.status() == 200) {
        page.items()
            .forEach(
                c -> {
                  JsonObject cluster = (JsonObject) c;
                  if ("connected".equals(cluster.getString("status"))) {
                    connectedAt.putIfAbsent(cluster.getString("name"), now);
                  }
                });
      }
      if (connectedAt.keySet().containsAll(names)) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private static Instant availableSince(GenericKubernetesResource hc) {
    Object conditions = hc == null ? null : hc.get("status", "conditions");
    if (conditions instanceof List<?> list) {
      for (Object c : list) {
        Map<String, Object> condition = (Map<String, Object>) c;
        if ("Available".equals(condition.get("type")) && "True".equals(condition.get("status"))) {
          return Instant.parse((String) condition.get("lastTransitionTime"));
        }
      }
    }
    return null;
  }

  private static double pct(List<Double> sorted, double p) {
    return sorted.isEmpty()
        ? Double.NaN
        : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
  }
}
