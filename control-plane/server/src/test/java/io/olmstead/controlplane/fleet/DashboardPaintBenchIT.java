package io.olmstead.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.testsupport.Browsers;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}): the Fleet and Matrix pages in headless
 * Chromium over 10,000 clusters x 20 subscriptions (FleetMatrixBenchIT's fleet: 200,000 status rows
 * written by SQL, not connected agents), or over a running control plane with a connected fleet
 * ({@code -Dolmstead.bench.url=URL -Dolmstead.bench.token=T}, what docs/bench/dashboard-fleet.sh
 * passes). Each page is loaded afresh several times; per load, from navigation start, the first
 * contentful paint (Performance API) and the moment its data is drawn (the dashboard's {@code
 * olmstead:rendered} mark, with the page's {@code data-test} element present); p50 and max of each;
 * then the matrix API's first page; the last line holds every figure.
 */
class DashboardPaintBenchIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String FCP =
      "const e = performance.getEntriesByName('first-contentful-paint')[0]; "
          + "return e ? e.startTime : null";
  // the slowest API call of the load (the page's calls run in parallel or one after the other: an
  // upper bound of
  // the server's share is the sum, a lower bound the slowest)
  private static final String API =
      "const d = performance.getEntriesByType('resource').filter((e) => "
          + "e.name.includes('/api/v1/') && !e.name.includes('/events')).map((e) => e.duration); "
          + "return [Math.max(0, ...d), d.reduce((a, b) => a + b, 0)]";
  private static final String RENDERED =
      "const e = performance.getEntriesByName('olmstead:rendered')[0]; "
          + "return e && document.querySelector(arguments[0]) ? e.startTime : null";

  @Test
  void fleetAndMatrixPagesPaintOverTenThousandClusters() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int clusters = Integer.getInteger("olmstead.bench.clusters", 10_000);
    String url = System.getProperty("olmstead.bench.url");
    if (url != null) {
      // a running control plane with a connected fleet (docs/bench/dashboard-fleet.sh)
      measure(url, System.getProperty("olmstead.bench.token"), clusters, "connected hollow agents");
      return;
    }
    try (TestControlPlane cp =
        TestControlPlane.start(TestDatabase.create(DashboardPaintBenchIT.class), Map.of())) {
      FleetMatrixBenchIT.populate(cp, clusters);
      // rows, not agents: seen "in the future" so that the gateway's presence sweep leaves the 98%
      // connected ones connected while the pages are measured (a hollow fleet keeps them so by its
      // heartbeats)
      TestDatabase.execute(
          cp.database(),
          "UPDATE clusters SET last_seen = now() + interval '1 day' "
              + "WHERE status = 'connected'");
      measure(cp.baseUrl(), ADMIN, clusters, "seeded rows");
    }
  }

  /**
   * Both pages' paints over the fleet at {@code baseUrl}, then the matrix API's first page; the
   * last line holds every figure.
   */
  private static void measure(String baseUrl, String token, int clusters, String fleet)
      throws Exception {
    int loads = Integer.getInteger("olmstead.bench.loads", 7);
    ChromeDriver browser = Browsers.headless();
    List<String> report = new ArrayList<>();
    report.add(
        String.format(
            "%,d clusters x 20 subscriptions (%s), %d fresh loads a page", clusters, fleet, loads));
    Paints fleetPage;
    Paints matrixPage;
    try {
      Browsers.signIn(browser, baseUrl, token);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  js(
                          browser,
                          "return document.getElementById("
                              + "'clusters-total') && document.getElementById('clusters-total').textContent")
                      != null);
      assertThat(js(browser, "return document.getElementById('clusters-total').textContent"))
          .isEqualTo(String.valueOf(clusters));
      fleetPage = measure(browser, baseUrl + "/ui/#/", "[data-test=subscription]", loads);
      report.add("Fleet page: " + fleetPage);
      matrixPage = measure(browser, baseUrl + "/ui/#/matrix", "#matrix [data-test=phase]", loads);
      report.add("Matrix page: " + matrixPage);
      // the matrix draws one page of 50 clusters, never the fleet
      assertThat(js(browser, "return document.querySelectorAll('#matrix tr[data-cluster]').length"))
          .isEqualTo(50L);
    } finally {
      browser.quit();
    }
    double[] api =
        FleetMatrixBenchIT.latencies(
            baseUrl,
            token,
            "/fleet/matrix?limit=50",
            Integer.getInteger("olmstead.bench.calls", 200));
    report.add(
        String.format(
            "GET /api/v1/fleet/matrix?limit=50: p50 %.1f ms, p99 %.1f ms",
            pct(api, 50), pct(api, 99)));
    report.add(
        String.format(
            "dashboard: N=%d (%s) fleet_fcp_p50=%.0f fleet_fcp_max=%.0f fleet_drawn_p50=%.0f"
                + " fleet_drawn_max=%.0f matrix_fcp_p50=%.0f matrix_fcp_max=%.0f"
                + " matrix_drawn_p50=%.0f matrix_drawn_max=%.0f matrix_api_p50=%.1f"
                + " matrix_api_p99=%.1f (ms)",
            clusters,
            fleet,
            fleetPage.fcp50(),
            fleetPage.fcpMax(),
            fleetPage.drawn50(),
            fleetPage.drawnMax(),
            matrixPage.fcp50(),
            matrixPage.fcpMax(),
            matrixPage.drawn50(),
            matrixPage.drawnMax(),
            pct(api, 50),
            pct(api, 99)));
    report.forEach(line -> System.out.println("BENCH " + line));
    Path out = Path.of("target", "dashboard-paint-bench.txt");
    Files.createDirectories(out.getParent());
    Files.write(out, report);
  }

  /** One page's paints over its loads, in ms from navigation start. */
  private record Paints(
      double fcp50,
      double fcpMax,
      double drawn50,
      double drawnMax,
      double slowest50,
      double sum50) {
    @Override
    public String toString() {
      return String.format(
          "first contentful paint p50 %.0f ms (max %.0f), data drawn p50 %.0f ms (max %.0f);"
              + " its API calls: slowest p50 %.0f ms, all together p50 %.0f ms",
          fcp50, fcpMax, drawn50, drawnMax, slowest50, sum50);
    }
  }

  /**
   * Loads {@code url} afresh {@code loads} times (after one warm-up load) and reports both paints.
   */
  private static Paints measure(ChromeDriver browser, String url, String dataElement, int loads) {
    double[] fcp = new double[loads];
    double[] rendered = new double[loads];
    double[] slowest = new double[loads];
    double[] sum = new double[loads];
    for (int i = -1; i < loads; i++) {
      browser.get("about:blank");
      browser.get(url);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> js(browser, RENDERED, dataElement) != null && js(browser, FCP) != null);
      if (i >= 0) {
        rendered[i] = ((Number) js(browser, RENDERED, dataElement)).doubleValue();
        fcp[i] = ((Number) js(browser, FCP)).doubleValue();
        List<?> api = (List<?>) js(browser, API);
        slowest[i] = ((Number) api.get(0)).doubleValue();
        sum[i] = ((Number) api.get(1)).doubleValue();
      }
    }
    return new Paints(
        pct(fcp, 50),
        pct(fcp, 100),
        pct(rendered, 50),
        pct(rendered, 100),
        pct(slowest, 50),
        pct(sum, 50));
  }

  private static Object js(ChromeDriver browser, String script, Object... args) {
    return browser.executeScript(script, args);
  }

  private static double pct(double[] values, int percentile) {
    return FleetMatrixBenchIT.pct(values, percentile);
  }
}
