package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}; {@code -Dolmstead.bench.clusters=N}, default
 * 10,000): N hollow clusters written to PostgreSQL as connected, running grafana-operator 5.21.2 of
 * {@code ../shared/catalogs/bundled-plus} (half on OpenShift 4.15, each with inventory counts of
 * two CRDs); measured: the time from the preview request to the whole answer with its impact report
 * for every cluster (the first preview parses the catalog; the second is measured too).
 */
class ImpactBenchIT {
  @Test
  void impactReportOfTheWholeFleet() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int clusters = Integer.getInteger("olmstead.bench.clusters", 10_000);
    byte[] catalog = Files.readAllBytes(SharedFolder.require(RolloutImpactIT.GRAFANA));
    var db = TestDatabase.create(ImpactBenchIT.class);
    try (TestControlPlane cp = TestControlPlane.start(db, Map.of())) {
      ApiClient api = new ApiClient(cp);
      RolloutImpactIT.seed(cp, api, catalog);
      String names =
          "SELECT 'ib-' || lpad(i::text, 5, '0') AS n, i FROM generate_series(1, "
              + clusters
              + ") i";
      TestDatabase.execute(
          db,
          "INSERT INTO clusters (name, labels, status, last_seen, facts) SELECT n, "
              + "'{\"fleet\":\"gf\"}', 'connected', now(), CASE WHEN i % 2 = 0 THEN '{\"openshiftVersion\":\"4.15.3\"}' "
              + "ELSE '{}' END::jsonb FROM ("
              + names
              + ") t");
      TestDatabase.execute(
          db,
          "INSERT INTO subscription_status (subscription, cluster, installed_bundle, "
              + "installed_version, target_version, phase, seq) SELECT 'gf', n, 'grafana-operator.v5.21.2', '5.21.2', "
              + "'5.21.2', 'Succeeded', 1 FROM ("
              + names
              + ") t");
      TestDatabase.execute(
          db,
          "INSERT INTO cluster_inventory (cluster, operators) SELECT n, '[]' FROM ("
              + names
              + ") t");
      TestDatabase.execute(
          db,
          "INSERT INTO cluster_inventory_operators (cluster, subscription, package, version) "
              + "SELECT n, 'gf', 'grafana-operator', '5.21.2' FROM ("
              + names
              + ") t");
      TestDatabase.execute(
          db,
          "INSERT INTO cluster_inventory_crds (cluster, subscription, package, crd, kind, count) "
              + "SELECT n, 'gf', 'grafana-operator', c.crd, c.kind, i % 50 FROM ("
              + names
              + ") t, (VALUES "
              + "('grafanas.grafana.integreatly.org', 'Grafana'), "
              + "('grafanadashboards.grafana.integreatly.org', 'GrafanaDashboard')) c(crd, kind)");
      String body =
          "{\"subscription\":\"gf\",\"targetVersion\":\"5.24.0\",\"strategy\":{\"batchSize\":1000}}";
      for (String run : new String[] {"first", "second"}) {
        long start = System.nanoTime();
        ApiClient.Response preview =
            api.json("POST", "/api/v1/rollouts/preview", TestControlPlane.ADMIN_TOKEN, body);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(preview.status())
            .as(preview.body().substring(0, Math.min(500, preview.body().length())))
            .isEqualTo(200);
        JsonObject impact = new JsonObject(preview.body()).getJsonObject("impact");
        assertThat(impact.getJsonObject("totals").getInteger("clusters")).isEqualTo(clusters + 2);
        assertThat(impact.getJsonArray("clusters")).hasSize(Math.min(clusters + 2, 10_000));
        System.out.printf(
            "BENCH impact: %s preview of %d clusters with its impact report answered in %.2f s "
                + "(%d bytes)%n",
            run, clusters + 2, seconds, preview.body().length());
        assertThat(seconds).as("the impact report of the fleet within 30 s").isLessThan(30);
      }
    }
  }
}
