package io.olmstead.controlplane.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The inventory's metrics carry only package, CRD and outcome labels (never a cluster); the Grafana
 * panels and the alert use only inventory metrics the control plane exports; the growth alert fires
 * on growth and not on a steady count (the alert's promtool test is in deploy/prometheus, run by
 * PrometheusRulesTest).
 */
class InventoryDeployFilesTest {
  private static final Path DEPLOY = Path.of("..", "..", "deploy"); // from control-plane/server
  private static final Pattern METRIC = Pattern.compile("\\bolmstead_inventory_[a-z_]+");

  private static PrometheusMeterRegistry registry() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    InventoryMetrics metrics = new InventoryMetrics(registry);
    metrics.fleet(
        List.of(
            new JsonObject()
                .put("package", "etcd")
                .put("crd", "etcdclusters.etcd.database.coreos.com")
                .put("count", 7L)),
        List.of(
            new JsonObject()
                .put("package", "etcd")
                .put("clusters", 3L)
                .put("cpu", 300L)
                .put("memory", 1L << 30)
                .put("usedCpu", 20L)
                .put("usedMemory", 1L << 20)));
    return registry;
  }

  private static Set<String> names(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(text);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  @Test
  void inventoryMetricsAreLabelledByPackageAndCrdOnly() {
    PrometheusMeterRegistry registry = registry();
    assertThat(
            registry.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("olmstead_inventory"))
                .flatMap(m -> m.getId().getTags().stream())
                .map(t -> t.getKey()))
        .isNotEmpty()
        .allMatch(key -> Set.of("package", "crd", "outcome").contains(key));
    assertThat(registry.scrape())
        .contains(
            "olmstead_inventory_custom_resources{crd=\"etcdclusters.etcd.database.coreos.com\",package=\"etcd\"} 7.0",
            "olmstead_inventory_reports_total{outcome=\"refused\"} 0.0");
    Meter clusters = registry.find("olmstead_inventory_clusters").meter();
    assertThat(clusters).isNotNull();
  }

  @Test
  void dashboardAndAlertUseOnlyExportedInventoryMetrics() throws Exception {
    Set<String> exported = names(registry().scrape());
    String rules = Files.readString(DEPLOY.resolve("prometheus/olmstead-rules.yaml"));
    String dashboard = Files.readString(DEPLOY.resolve("grafana/olmstead-rollouts.json"));
    assertThat(names(rules)).isNotEmpty().isSubsetOf(exported);
    assertThat(names(dashboard)).isNotEmpty().isSubsetOf(exported);
    assertThat(rules).contains("OlmsteadCustomResourcesGrowing");
  }
}
