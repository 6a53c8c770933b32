package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code dev --simulate-hypershift 20}: the hosted agents of the dev process share a fixed set of
 * threads, as a pool replica's do. The threads alive once the watcher has enrolled the 20
 * HostedClusters (their guests up, no agent yet) are counted, then again once all 20 are connected:
 * the agents add a bounded number, not a few per cluster (an agent with threads of its own adds at
 * least its reconcile worker, resync timer and preflight thread, and its guest client's Vert.x
 * event loop, 20 times over). Skipped, saying so, without {@code ../shared/hypershift}.
 */
class DevHypershiftThreadsIT {
  private static final int CLUSTERS = 20;

  /**
   * What the dev pool replica may add besides its guest callbacks, whatever the number of clusters:
   * 56 at 20 clusters in the last runs (its fixed threads, and Vert.x's internal blocking pool, at
   * most 20 threads).
   */
  private static final int MAX_ADDED_THREADS = 60;

  private static final Duration WAIT = Duration.ofMinutes(2);

  @Test
  void twentySimulatedHostedClustersAreServedOnAFewSharedThreads() throws Exception {
    List<String> names =
        IntStream.rangeClosed(1, CLUSTERS)
            .mapToObj(i -> String.format("clusters-hc-%02d", i))
            .toList();
    try (DevHypershift sim =
            DevHypershift.start(
                Files.createTempDirectory("dev-threads"),
                HypershiftFixtures.dir(),
                CLUSTERS,
                Duration.ofMillis(500),
                Duration.ofMillis(200));
        TestControlPlane cp =
            TestControlPlane.start(
                TestDatabase.create(DevHypershiftThreadsIT.class),
                Map.of(HypershiftSettings.MANAGEMENT_KUBECONFIG, sim.kubeconfig().toString()))) {
      ApiClient api = new ApiClient(cp);
      await()
          .atMost(WAIT)
          .untilAsserted(
              () ->
                  names.forEach(
                      name -> assertThat(status(api, name)).as(name).isEqualTo("pending")));
      Map<String, Long> before = liveThreads();

      sim.connectAgents(cp.controlPlane().pool(), URI.create(cp.baseUrl()));
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> {
                names.forEach(
                    name -> assertThat(status(api, name)).as(name).isEqualTo("connected"));
                assertThat(sim.agents().running()).containsAll(names);
              });
      Thread.sleep(2000); // the reconcile loops' first passes after connecting
      Map<String, Long> after = liveThreads();
      long added = total(after) - total(before);
      Map<String, Long> grown = new TreeMap<>();
      after.forEach(
          (kind, n) -> {
            if (n > before.getOrDefault(kind, 0L)) {
              grown.put(kind, n - before.getOrDefault(kind, 0L));
            }
          });
      System.out.printf(
          "DEV THREADS with %d simulated hosted clusters: %d before their agents, %d after (+%d: %s)%n",
          CLUSTERS, total(before), total(after), added, grown);
      // guest-callbacks is a cached pool (informer start-up blocks in it): it grows by the guests
      // starting at the same
      // moment, at most one thread each, so its count depends on timing; every other pool is fixed
      long callbacks = grown.getOrDefault("guest-callbacks-N", 0L);
      assertThat(callbacks)
          .as("callback threads: at most one per guest")
          .isLessThanOrEqualTo(CLUSTERS);
      assertThat(added - callbacks)
          .as(
              "threads the hosted agents of %d clusters added besides callbacks: %s",
              CLUSTERS, grown)
          .isLessThanOrEqualTo(MAX_ADDED_THREADS);
    }
  }

  /** Live threads by kind (the name without its numbers). */
  private static Map<String, Long> liveThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .collect(
            Collectors.groupingBy(
                t -> t.getName().replaceAll("[0-9]+", "N"), TreeMap::new, Collectors.counting()));
  }

  private static long total(Map<String, Long> threads) {
    return threads.values().stream().mapToLong(Long::longValue).sum();
  }

  private static String status(ApiClient api, String name) {
    ApiClient.Response response = api.get("/api/v1/clusters/" + name, TestControlPlane.ADMIN_TOKEN);
    return response.status() == 200
        ? new JsonObject(response.body()).getString("status")
        : "absent";
  }
}
