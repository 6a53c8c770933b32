package io.olmstead.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.catalog.CatalogFixtures;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}): the Fleet page over 10,000 clusters and 100
 * subscriptions (each cluster reports 10 of them: 100,000 status rows, 2% Failed, 1% waiting for
 * approval), written straight into PostgreSQL. Reports the page's first meaningful paint in
 * headless Chromium (the Performance API mark the dashboard sets once its first page is drawn with
 * data, charts included, from navigation start), over fresh loads, and the p50/p99 of each API call
 * the page makes, sequentially from one client, after a warm-up.
 */
class FleetPageBenchIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void fleetPageOverTenThousandClusters() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    assumeTrue(
        new File(DashboardPagesIT.CHROMIUM).canExecute()
            && new File(DashboardPagesIT.DRIVER).canExecute(),
        "skipped: headless Chromium needs "
            + DashboardPagesIT.CHROMIUM
            + " and "
            + DashboardPagesIT.DRIVER);
    int clusters = Integer.getInteger("olmstead.bench.clusters", 10_000);
    int loads = Integer.getInteger("olmstead.bench.loads", 20);
    int calls = Integer.getInteger("olmstead.bench.calls", 200);
    try (TestControlPlane cp =
        TestControlPlane.start(TestDatabase.create(FleetPageBenchIT.class), Map.of())) {
      long started = System.nanoTime();
      populate(cp, clusters);
      System.out.printf("BENCH populated in %.1f s%n", (System.nanoTime() - started) / 1e9);
      List<String> report = new ArrayList<>();
      report.add(
          String.format(
              "%,d clusters, 100 subscriptions, %,d status rows", clusters, clusters * 10));
      for (String path :
          List.of(
              "/fleet/summary?limit=10",
              "/fleet/clusters-by-label?label=region",
              "/fleet/summary?limit=10&selector=region%3Deu-1",
              "/fleet/clusters-by-label?label=region&selector=env%3Dprod",
              "/approvals?limit=100",
              "/clusters?limit=100&subscription=sub-007&phase=Failed")) {
        double[] ms = latencies(cp, path, calls);
        report.add(
            String.format(
                "GET /api/v1%-60s p50 %6.1f ms  p99 %6.1f ms", path, pct(ms, 50), pct(ms, 99)));
        System.out.println("BENCH " + report.get(report.size() - 1));
      }
      ChromeDriver browser = DashboardPagesIT.browser();
      try {
        DashboardPagesIT.login(browser, cp.port(), ADMIN);
        assertThat(
                ((JavascriptExecutor) browser)
                    .executeScript("return document.getElementById('clusters-total').textContent"))
            .isEqualTo(String.format("%d", clusters));
        double[] paints = new double[loads];
        for (int i = 0; i < loads; i++) {
          browser.navigate().refresh();
          await()
              .atMost(Duration.ofSeconds(30))
              .until(
                  () ->
                      ((JavascriptExecutor) browser)
                                  .executeScript(
                                      "return performance.getEntriesByName('olmstead:rendered').length")
                              instanceof Long n
                          && n == 1);
          paints[i] =
              ((Number)
                      ((JavascriptExecutor) browser)
                          .executeScript(
                              "return performance.getEntriesByName('olmstead:rendered')[0].startTime"))
                  .doubleValue();
        }
        report.add(
            String.format(
                "Fleet page first meaningful paint over %d loads: p50 %.0f ms, max %.0f ms",
                loads, pct(paints, 50), pct(paints, 100)));
      } finally {
        browser.quit();
      }
      report.forEach(line -> System.out.println("BENCH " + line));
      Path out = Path.of("target", "fleet-page-bench.txt");
      Files.createDirectories(out.getParent());
      Files.write(out, report);
    }
  }

  private static void populate(TestControlPlane cp, int clusters) {
    ApiClient api = new ApiClient(cp);
    assertThat(api.json("PUT", "/api/v1/catalogs/community", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    assertThat(
            api.send(
                    "POST",
                    "/api/v1/catalogs/community/revisions",
                    ADMIN,
                    "application/x-ndjson",
                    CatalogFixtures.etcdNdjson().getBytes(StandardCharsets.UTF_8),
                    Map.of())
                .status())
        .isEqualTo(201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status) SELECT "
            + "'c-' || lpad(i::text, 5, '0'), jsonb_build_object('env', CASE WHEN i % 3 = 0 THEN 'dev' ELSE 'prod' END, "
            + "'region', 'eu-' || (i % 7), 'olmstead.io/team', 'team-' || (i % 10)), "
            + "CASE WHEN i % 50 = 0 THEN 'disconnected' ELSE 'connected' END FROM generate_series(1, "
            + clusters
            + ") AS i");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
            + "version_kind, version_value, approval, created_by) SELECT 'sub-' || lpad(i::text, 3, '0'), 'community', "
            + "'etcd', 'stable', 'ns-' || i, 'follow', 'channel', 'Automatic', 'bench' FROM generate_series(0, 99) AS i");
    // cluster i runs subscriptions (i + k * 10) % 100 for k in 0..9
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "phase, reason, message, conditions) SELECT 'sub-' || lpad(((i + k * 10) % 100)::text, 3, '0'), "
            + "'c-' || lpad(i::text, 5, '0'), '0.9.' || ((i + k) % 3), CASE WHEN (i * 7 + k) % 100 < 2 THEN 'Failed' "
            + "WHEN (i * 7 + k) % 100 = 2 THEN 'RequiresApproval' ELSE 'Succeeded' END, "
            + "CASE WHEN (i * 7 + k) % 100 < 2 THEN 'InstallCheckFailed' END, "
            + "CASE WHEN (i * 7 + k) % 100 < 2 THEN 'deployment not available' END, "
            + "CASE WHEN (i * 7 + k) % 100 = 2 THEN '[{\"type\":\"RequiresApproval\",\"message\":\"etcd.v0.9.4\"}]' "
            + "ELSE '[]' END::jsonb FROM generate_series(1, "
            + clusters
            + ") AS i, generate_series(0, 9) AS k");
    TestDatabase.execute(cp.database(), "ANALYZE");
  }

  private static double[] latencies(TestControlPlane cp, String path, int calls) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cp.port() + "/api/v1" + path))
            .header("Authorization", "Bearer " + ADMIN)
            .build();
    for (int i = 0; i < 30; i++) {
      HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
    double[] ms = new double[calls];
    for (int i = 0; i < calls; i++) {
      long start = System.nanoTime();
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      ms[i] = (System.nanoTime() - start) / 1e6;
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }
    return ms;
  }

  private static double pct(double[] values, int percentile) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[
        Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)];
  }
}
