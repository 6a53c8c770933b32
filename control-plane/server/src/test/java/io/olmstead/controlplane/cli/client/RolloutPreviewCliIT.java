package io.olmstead.controlplane.cli.client;

import static io.olmstead.controlplane.cli.client.CliRun.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.rollout.RolloutImpactIT;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code olmstead rollout preview} against a real control plane with the grafana-operator fixture
 * of {@link RolloutImpactIT}: the table names the permission changes, the new CRD and the clusters;
 * {@code -o json} and {@code -o yaml} print the whole impact report as the API answers it.
 */
class RolloutPreviewCliIT {
  private static TestControlPlane cp;
  @TempDir static Path home;

  @BeforeAll
  static void start() throws Exception {
    byte[] catalog = Files.readAllBytes(SharedFolder.require(RolloutImpactIT.GRAFANA));
    cp = TestControlPlane.start(RolloutPreviewCliIT.class);
    RolloutImpactIT.seed(cp, new ApiClient(cp), catalog);
    // a second subscription whose two clusters run 5.22.2, above the 5.22.0 a preview asks for
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
            + "version_kind, version_value, approval, created_by) VALUES ('gfo', 'gf', 'grafana-operator', 'v5', "
            + "'grafana', 'fleet=gfo', 'pin', '5.22.2', 'Automatic', 'test')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, last_seen, facts) VALUES "
            + "('old-1', '{\"fleet\":\"gfo\"}', 'connected', now(), '{}'), "
            + "('old-2', '{\"fleet\":\"gfo\"}', 'connected', now(), '{}')");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle, installed_version, "
            + "target_version, phase, seq) SELECT 'gfo', n, 'grafana-operator.v5.22.2', '5.22.2', '5.22.2', "
            + "'Succeeded', 1 FROM (VALUES ('old-1'), ('old-2')) AS t(n)");
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  private static CliRun cli(String... args) {
    return CliRun.run(
        Map.of(
            "XDG_CONFIG_HOME",
            home.toString(),
            "OLMSTEAD_URL",
            cp.baseUrl(),
            "OLMSTEAD_TOKEN",
            TestControlPlane.ADMIN_TOKEN),
        "",
        args);
  }

  @Test
  void theTableNamesThePermissionAndCrdChangesAndEveryCluster() {
    String out =
        ok(cli("rollout", "preview", "gf", "5.24.0", "--strategy", "{\"preflight\":\"Off\"}"))
            .out();
    assertThat(out)
        .contains(
            "Preview: gf -> 5.24.0   2 clusters",
            "From 5.21.2 (2 clusters): grafana-operator.v5.21.2 -> grafana-operator.v5.24.0",
            "RBAC + cluster   events.k8s.io/events: create,patch",
            "RBAC - cluster   coordination.k8s.io/leases: create,delete,get,list,patch,update,watch",
            "RBAC - namespace configmaps: create,delete,get,list,patch,update,watch",
            "CRD  + grafanamanifests.grafana.integreatly.org (GrafanaManifest) v1beta1",
            "Custom resources affected: 42 on 1 clusters",
            "Risky edges: 0 clusters at risk");
    assertThat(out.lines().filter(l -> l.startsWith("gf-"))).hasSize(2);
  }

  @Test
  void jsonAndYamlPrintTheWholeReportForAChangeTicket() throws Exception {
    JsonNode json =
        Api.JSON.readTree(ok(cli("rollout", "preview", "gf", "5.24.0", "-o", "json")).out());
    assertThat(
            json.path("impact")
                .path("transitions")
                .get(0)
                .path("rbac")
                .path("added")
                .get(0)
                .path("apiGroup")
                .asText())
        .isEqualTo("events.k8s.io");
    assertThat(json.path("impact").path("clusters")).hasSize(2);
    JsonNode yaml =
        Output.YAML.readTree(ok(cli("rollout", "preview", "gf", "5.24.0", "-o", "yaml")).out());
    assertThat(yaml.path("impact").path("totals")).isEqualTo(json.path("impact").path("totals"));
  }

  @Test
  void aPreviewBelowTheFleetsVersionNamesEachExcludedClusterWithItsReason() {
    String out =
        ok(cli("rollout", "preview", "gfo", "5.22.0", "--strategy", "{\"preflight\":\"Off\"}"))
            .out();
    assertThat(out)
        .contains(
            "Preview: gfo -> 5.22.0   0 clusters in 0 waves",
            "Excluded: 2 placed clusters take no part:\n",
            "  old-1     no upgrade path from 5.22.2 to 5.22.0\n",
            "  old-2     no upgrade path from 5.22.2 to 5.22.0\n");
  }

  @Test
  void aStrategyThatIsNotJsonIsAUsageError() {
    CliRun.oneLine(
        cli("rollout", "preview", "gf", "5.24.0", "--strategy", "{batch"),
        ExitCodes.USAGE,
        "--strategy is not JSON");
  }
}
