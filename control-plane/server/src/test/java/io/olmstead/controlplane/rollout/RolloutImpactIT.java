package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.edgerisk.EdgeFacts;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.SharedFolder;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The preview's impact report for a real bundle pair: grafana-operator 5.21.2 to 5.24.0 from {@code
 * ../shared/catalogs/bundled-plus} (5.24.0 replaces 5.21.2 and skips 5.22.0 and 5.22.2: one hop).
 * Read by hand from the two CSVs and their CRDs: the operator gains cluster-wide {@code create,
 * patch} on {@code events.k8s.io/events}; it loses cluster-wide {@code get, list, watch} on core
 * {@code events}, every verb on {@code coordination.k8s.io/leases}, and in its namespaces every
 * verb on {@code configmaps} and {@code create, patch} on {@code events}; the CRD {@code
 * grafanamanifests.grafana.integreatly.org} (GrafanaManifest v1beta1) is new, none is removed, the
 * twelve others change their v1beta1 schema; no webhook either side. Clusters are written as their
 * agents and inventory would have reported them.
 */
public class RolloutImpactIT {
  public static final String GRAFANA = "catalogs/bundled-plus/grafana-operator/catalog.json";
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() throws Exception {
    byte[] catalog = Files.readAllBytes(SharedFolder.require(GRAFANA));
    cp = TestControlPlane.start(RolloutImpactIT.class);
    api = new ApiClient(cp);
    seed(cp, api, catalog);
  }

  /**
   * Catalog {@code gf} (the shared grafana-operator catalog), subscription {@code gf} placed on
   * {@code gf-1} (OpenShift 4.15.2, 2 Grafana and 40 GrafanaDashboard resources) and {@code gf-2},
   * both running 5.21.2.
   */
  public static void seed(TestControlPlane cp, ApiClient api, byte[] catalog) {
    assertThat(api.json("PUT", "/api/v1/catalogs/gf", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
    ApiClient.Response up =
        api.send(
            "POST", "/api/v1/catalogs/gf/revisions", ADMIN, "application/json", catalog, Map.of());
    assertThat(up.status()).as(up.body()).isEqualTo(201);
    Consumer<String> sql = statement -> TestDatabase.execute(cp.database(), statement);
    sql.accept(
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
            + "version_kind, version_value, approval, created_by) VALUES ('gf', 'gf', 'grafana-operator', 'v5', 'grafana', "
            + "'fleet=gf', 'pin', '5.21.2', 'Automatic', 'test')");
    sql.accept(
        "INSERT INTO clusters (name, labels, status, last_seen, facts) VALUES "
            + "('gf-1', '{\"fleet\":\"gf\"}', 'connected', now(), '{\"openshiftVersion\":\"4.15.2\"}'), "
            + "('gf-2', '{\"fleet\":\"gf\"}', 'connected', now(), '{}')");
    sql.accept(
        "INSERT INTO subscription_status (subscription, cluster, installed_bundle, installed_version, "
            + "target_version, phase, seq) SELECT 'gf', n, 'grafana-operator.v5.21.2', '5.21.2', '5.21.2', 'Succeeded', 1 "
            + "FROM (VALUES ('gf-1'), ('gf-2')) AS t(n)");
    sql.accept("INSERT INTO cluster_inventory (cluster, operators) VALUES ('gf-1', '[]')");
    sql.accept(
        "INSERT INTO cluster_inventory_operators (cluster, subscription, package, version) "
            + "VALUES ('gf-1', 'gf', 'grafana-operator', '5.21.2')");
    sql.accept(
        "INSERT INTO cluster_inventory_crds (cluster, subscription, package, crd, kind, count) VALUES "
            + "('gf-1', 'gf', 'grafana-operator', 'grafanas.grafana.integreatly.org', 'Grafana', 2), "
            + "('gf-1', 'gf', 'grafana-operator', 'grafanadashboards.grafana.integreatly.org', 'GrafanaDashboard', 40), "
            + "('gf-1', 'gf', 'grafana-operator', 'grafanamanifests.grafana.integreatly.org', 'GrafanaManifest', 0)");
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  private static JsonObject impact() {
    ApiClient.Response r =
        api.json(
            "POST",
            "/api/v1/rollouts/preview",
            ADMIN,
            new JsonObject()
                .put("subscription", "gf")
                .put("targetVersion", "5.24.0")
                .put("strategy", new JsonObject().put("preflight", "Off")));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return new JsonObject(r.body()).getJsonObject("impact");
  }

  private static JsonObject grant(String scope, String group, String resource, String... verbs) {
    return new JsonObject()
        .put("scope", scope)
        .put("apiGroup", group)
        .put("resource", resource)
        .put("verbs", new JsonArray(List.of((Object[]) verbs)));
  }

  @Test
  void listsThePermissionsTheOperatorGainsAndLosesClusterScopeIncluded() {
    JsonObject t = impact().getJsonArray("transitions").getJsonObject(0);
    assertThat(t.getString("fromBundle")).isEqualTo("grafana-operator.v5.21.2");
    assertThat(t.getString("toBundle")).isEqualTo("grafana-operator.v5.24.0");
    assertThat(t.getInteger("clusters")).isEqualTo(2);
    JsonObject rbac = t.getJsonObject("rbac");
    assertThat(rbac.getJsonArray("added"))
        .containsExactly(grant("cluster", "events.k8s.io", "events", "create", "patch"));
    assertThat(rbac.getJsonArray("removed"))
        .containsExactly(
            grant("cluster", "", "events", "get", "list", "watch"),
            grant(
                "cluster",
                "coordination.k8s.io",
                "leases",
                "create",
                "delete",
                "get",
                "list",
                "patch",
                "update",
                "watch"),
            grant(
                "namespace",
                "",
                "configmaps",
                "create",
                "delete",
                "get",
                "list",
                "patch",
                "update",
                "watch"),
            grant("namespace", "", "events", "create", "patch"));
    assertThat(rbac.getBoolean("clusterScopedChanged")).isTrue();
  }

  @Test
  void listsTheCrdChangesAndTheCustomResourcesTheyTouch() {
    JsonObject report = impact();
    JsonObject crds = report.getJsonArray("transitions").getJsonObject(0).getJsonObject("crds");
    assertThat(crds.getJsonArray("added"))
        .containsExactly(
            new JsonObject()
                .put("name", "grafanamanifests.grafana.integreatly.org")
                .put("kind", "GrafanaManifest")
                .put("scope", "Namespaced")
                .put("versions", new JsonArray().add("v1beta1")));
    assertThat(crds.getJsonArray("removed")).isEmpty();
    assertThat(crds.getJsonArray("changed")).hasSize(12);
    assertThat(
            crds.getJsonArray("changed").stream()
                .map(c -> ((JsonObject) c).getJsonArray("schemaChanged")))
        .allSatisfy(versions -> assertThat(versions).containsExactly("v1beta1"));
    JsonObject apis = report.getJsonArray("transitions").getJsonObject(0).getJsonObject("apis");
    assertThat(apis.getJsonArray("added"))
        .containsExactly(
            new JsonObject()
                .put("source", "crd")
                .put("name", "grafanamanifests.grafana.integreatly.org")
                .put("version", "v1beta1")
                .put("kind", "GrafanaManifest"));
    assertThat(apis.getJsonArray("removed")).isEmpty();
    JsonObject webhooks =
        report.getJsonArray("transitions").getJsonObject(0).getJsonObject("webhooks");
    assertThat(webhooks.getJsonArray("added")).isEmpty();
    assertThat(webhooks.getJsonArray("changed")).isEmpty();

    JsonObject gf1 = cluster(report, "gf-1");
    assertThat(gf1.getJsonObject("customResources").getLong("total")).isEqualTo(42L);
    assertThat(
            gf1.getJsonObject("customResources").getJsonArray("affected").stream()
                .map(
                    a ->
                        ((JsonObject) a).getString("crd")
                            + "="
                            + ((JsonObject) a).getLong("count")))
        .containsExactlyInAnyOrder(
            "grafanas.grafana.integreatly.org=2", "grafanadashboards.grafana.integreatly.org=40");
    assertThat(cluster(report, "gf-2").getJsonObject("customResources").getLong("total")).isZero();
    assertThat(report.getJsonObject("totals").getJsonObject("customResources").getLong("affected"))
        .isEqualTo(42L);
  }

  @Test
  void eachClusterNamesItsHopsOpenShiftEffectWindowAndNoRiskyEdgeWithoutEvidence() {
    JsonObject report = impact();
    JsonObject gf1 = cluster(report, "gf-1");
    assertThat(gf1.getJsonArray("path"))
        .containsExactly(
            new JsonObject().put("bundle", "grafana-operator.v5.24.0").put("version", "5.24.0"));
    assertThat(gf1.getJsonObject("openShift").getString("effect")).isEqualTo("None");
    assertThat(gf1.getJsonObject("openShift").getString("nextMinor")).isEqualTo("4.16");
    assertThat(cluster(report, "gf-2").getJsonObject("openShift").getString("effect"))
        .isEqualTo("NotOpenShift");
    assertThat(gf1.getJsonObject("window").getBoolean("openNow")).isTrue();
    assertThat(gf1.getJsonArray("riskyEdges")).isEmpty();
    assertThat(report.getJsonObject("riskyEdges").getBoolean("evaluated")).isTrue();
    assertThat(report.getJsonObject("totals").getInteger("maxHops")).isEqualTo(1);
    assertThat(
            report
                .getJsonObject("totals")
                .getJsonObject("rbac")
                .getInteger("clustersGainingPermissions"))
        .isEqualTo(2);
  }

  @Test
  void anEdgeThatFailedOnAClusterWithTheSameFactsIsRiskyForThatClusterOnly() {
    // gf-1 (OpenShift 4.15) has the facts of a cluster of another team that failed 5.21.2 ->
    // 5.24.0; gf-2 has none
    EdgeFacts facts =
        EdgeFacts.of(
            Map.of("fleet", "gf"), new JsonObject().put("openshiftVersion", "4.15.2"), List.of());
    String risk = facts.riskId("grafana-operator", "5.21.2", "5.24.0");
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO edge_risk_observations (team, package, from_version, "
            + "to_version, cluster, risk_id, facts, failed, detail, source, observed_at) VALUES ('other', "
            + "'grafana-operator', '5.21.2', '5.24.0', 'elsewhere-1', '"
            + risk
            + "', '"
            + facts.toJson().encode()
            + "', true, 'install failed', 'rollouts/ro-x', now())");
    try {
      JsonObject report = impact();
      JsonArray risky = cluster(report, "gf-1").getJsonArray("riskyEdges");
      assertThat(risky).hasSize(1);
      assertThat(risky.getJsonObject(0).getString("riskId")).isEqualTo(risk);
      assertThat(risky.getJsonObject(0).getString("from")).isEqualTo("5.21.2");
      assertThat(risky.getJsonObject(0).getString("message"))
          .startsWith("EdgeAtRisk (risk " + risk)
          .doesNotContain("elsewhere-1");
      assertThat(cluster(report, "gf-2").getJsonArray("riskyEdges")).isEmpty();
    } finally {
      TestDatabase.execute(
          cp.database(), "DELETE FROM edge_risk_observations WHERE risk_id = '" + risk + "'");
    }
  }

  private static JsonObject cluster(JsonObject report, String name) {
    return report.getJsonArray("clusters").stream()
        .map(JsonObject.class::cast)
        .filter(c -> name.equals(c.getString("name")))
        .findFirst()
        .orElseThrow();
  }
}
