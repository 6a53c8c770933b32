package io.olmstead.controlplane.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}): the fleet matrix's first page over 10,000
 * clusters x 20 subscriptions (200,000 status rows, 2% Failed, 1% waiting for approval, 2% of
 * clusters disconnected) written straight into PostgreSQL: p50/p99 of {@code GET /fleet/matrix}
 * sequentially from one client after a warm-up, by name, by a column's version and phase, and with
 * a selector; prints the plan of the version-ordered page.
 */
class FleetMatrixBenchIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void matrixFirstPageOverTenThousandClustersAndTwentySubscriptions() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int clusters = Integer.getInteger("olmstead.bench.clusters", 10_000);
    int calls = Integer.getInteger("olmstead.bench.calls", 200);
    try (TestControlPlane cp =
        TestControlPlane.start(TestDatabase.create(FleetMatrixBenchIT.class), Map.of())) {
      populate(cp, clusters);
      List<String> report = new ArrayList<>();
      report.add(
          String.format(
              "%,d clusters x 20 subscriptions, %,d status rows, first page of 50",
              clusters, clusters * 20));
      for (String path :
          List.of(
              "/fleet/matrix?limit=50",
              "/fleet/matrix?limit=50&sort=version:sub-07",
              "/fleet/matrix?limit=50&sort=-phase:sub-07",
              "/fleet/matrix?limit=50&selector=region%3Deu-1",
              "/fleet/matrix?limit=50&selector=region%3Deu-1&sort=version:sub-07",
              // the first again: the first measured runs while the database still settles after the
              // 200,000-row load
              "/fleet/matrix?limit=50")) {
        double[] ms = latencies(cp.baseUrl(), ADMIN, path, calls);
        report.add(
            String.format(
                "GET /api/v1%-60s p50 %6.1f ms  p99 %6.1f ms", path, pct(ms, 50), pct(ms, 99)));
        System.out.println("BENCH " + report.get(report.size() - 1));
      }
      explain(cp);
      report.forEach(line -> System.out.println("BENCH " + line));
      Path out = Path.of("target", "fleet-matrix-bench.txt");
      Files.createDirectories(out.getParent());
      Files.write(out, report);
    }
  }

  /**
   * 10,000 clusters x 20 subscriptions by SQL, as the benchmark measures them; also
   * DashboardPaintBenchIT's fleet.
   */
  static void populate(TestControlPlane cp, int clusters) {
    assertThat(
            new ApiClient(cp)
                .json("PUT", "/api/v1/catalogs/community", ADMIN, new JsonObject())
                .status())
        .isEqualTo(201);
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, last_seen) SELECT "
            + "'c-' || lpad(i::text, 5, '0'), jsonb_build_object('env', CASE WHEN i % 3 = 0 THEN 'dev' ELSE 'prod' END, "
            + "'region', 'eu-' || (i % 7), 'olmstead.io/team', 'team-' || (i % 10)), "
            + "CASE WHEN i % 50 = 0 THEN 'disconnected' ELSE 'connected' END, now() FROM generate_series(1, "
            + clusters
            + ") AS i");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
            + "version_kind, version_value, approval, created_by) SELECT 'sub-' || lpad(i::text, 2, '0'), 'community', "
            + "'etcd', 'stable', 'ns-' || i, 'follow', 'channel', 'Automatic', 'bench' FROM generate_series(0, 19) AS i");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_version, "
            + "target_version, phase, reason, message, conditions) SELECT 'sub-' || lpad(k::text, 2, '0'), "
            + "'c-' || lpad(i::text, 5, '0'), '0.9.' || ((i + k) % 12), '0.9.11', CASE WHEN (i * 7 + k) % 100 < 2 "
            + "THEN 'Failed' WHEN (i * 7 + k) % 100 = 2 THEN 'RequiresApproval' ELSE 'Succeeded' END, "
            + "CASE WHEN (i * 7 + k) % 100 < 2 THEN 'InstallCheckFailed' END, "
            + "CASE WHEN (i * 7 + k) % 100 < 2 THEN 'deployment not available' END, "
            + "CASE WHEN (i * 7 + k) % 100 = 2 THEN '[{\"type\":\"RequiresApproval\",\"message\":\"etcd.v0.9.11\"}]' "
            + "ELSE '[]' END::jsonb FROM generate_series(1, "
            + clusters
            + ") AS i, generate_series(0, 19) AS k");
    TestDatabase.execute(cp.database(), "ANALYZE");
  }

  /**
   * The plan of the version-ordered first page, as MatrixQueries builds it for an admin without a
   * selector.
   */
  private static void explain(TestControlPlane cp) throws Exception {
    String sql =
        "EXPLAIN (ANALYZE, BUFFERS) SELECT c.name, c.status, c.labels, c.last_seen, s.cluster IS NULL AS k1, "
            + MatrixQueries.VERSION_KEY
            + " AS k2 FROM clusters c LEFT JOIN subscription_status s "
            + "ON s.subscription = 'sub-07' AND s.cluster = c.name AND NOT s.gone WHERE c.status <> 'retired' "
            + "ORDER BY k1, k2, c.name LIMIT 51";
    try (Connection c =
            DriverManager.getConnection(
                cp.database().jdbcUrl(), cp.database().user(), cp.database().password());
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      while (rs.next()) {
        System.out.println("PLAN " + rs.getString(1));
      }
    }
  }

  /** {@code calls} timed GETs of a matrix page of 50 at {@code baseUrl}, after 30 warm-up calls. */
  static double[] latencies(String baseUrl, String token, String path, int calls) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1" + path))
            .header("Authorization", "Bearer " + token)
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
      assertThat(new JsonObject(response.body()).getJsonArray("items")).hasSize(50);
    }
    return ms;
  }

  static double pct(double[] values, int percentile) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[
        Math.min(sorted.length - 1, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)];
  }
}
