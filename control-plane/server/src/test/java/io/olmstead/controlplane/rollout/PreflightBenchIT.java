package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}; {@code -Dolmstead.bench.agents=N}, default
 * 10,000): N hollow agents on the real channel client, all running etcd 0.9.2; one preview of a
 * rollout to 0.9.4 asks every cluster for a preflight; measured: the time from the preview request
 * until every cluster's verdict is stored.
 */
class PreflightBenchIT {
  @Test
  void previewPreflightVerdictsOfTheWholeFleet() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int agents = Integer.getInteger("olmstead.bench.agents", 10_000);
    var db = TestDatabase.create(PreflightBenchIT.class);
    try (TestControlPlane cp = TestControlPlane.start(db, Map.of())) {
      RolloutFixtures fx = new RolloutFixtures(db);
      fx.catalog();
      fx.subscription("etcd", "fleet=bench", "0.9.2");
      String token = fx.enrollmentToken(agents, "{\"fleet\":\"bench\"}");
      long connectStart = System.nanoTime();
      // the hollow agents in a process of their own: one JVM may not hold both ends of 10,000
      // sockets
      Process fleet =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx1500m",
                  "-cp",
                  System.getProperty("java.class.path"),
                  "io.olmstead.agent.Main",
                  "hollow",
                  "--count",
                  String.valueOf(agents),
                  "--control-plane",
                  cp.baseUrl(),
                  "--token",
                  token,
                  "--name-prefix",
                  "pf-",
                  "--ready-after",
                  "200ms",
                  "--connects-per-second",
                  "200",
                  "--duration",
                  "20m")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      try {
        await()
            .atMost(Duration.ofMinutes(15))
            .pollInterval(Duration.ofSeconds(2))
            .until(
                () ->
                    fx.count(
                            "SELECT count(*) FROM subscription_status WHERE installed_version = '0.9.2' AND phase = 'Succeeded'")
                        == agents);
        System.out.printf(
            "BENCH preflight: %d agents connected and Succeeded at 0.9.2 in %.1f s%n",
            agents, (System.nanoTime() - connectStart) / 1e9);
        ApiClient api = new ApiClient(cp);
        long start = System.nanoTime();
        ApiClient.Response preview =
            api.json(
                "POST",
                "/api/v1/rollouts/preview",
                TestControlPlane.ADMIN_TOKEN,
                "{\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1000}}");
        double answeredIn = (System.nanoTime() - start) / 1e9;
        assertThat(preview.status()).as(preview.body()).isEqualTo(200);
        await()
            .atMost(Duration.ofMinutes(5))
            .pollInterval(Duration.ofMillis(250))
            .until(
                () ->
                    fx.count(
                            "SELECT count(*) FROM preflight_checks WHERE requester LIKE 'preview:%' AND verdict = 'Pass'")
                        == agents);
        double all = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            "BENCH preflight: preview of %d clusters answered in %.2f s; every verdict stored %.2f s "
                + "after the request%n",
            agents, answeredIn, all);
        ApiClient.Response again =
            api.json(
                "POST",
                "/api/v1/rollouts/preview",
                TestControlPlane.ADMIN_TOKEN,
                "{\"subscription\":\"etcd\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1000}}");
        assertThat(again.body()).doesNotContain("\"Pending\"");
        System.out.printf(
            "BENCH preflight: the next preview shows every verdict (%d bytes)%n",
            again.body().length());
      } finally {
        fleet.destroy();
        fleet.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }
}
