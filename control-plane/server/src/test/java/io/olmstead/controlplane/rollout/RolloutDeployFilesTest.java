package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard and the PrometheusRule use only metrics the control plane exports. */
class RolloutDeployFilesTest {
  private static final Path DEPLOY = Path.of("..", "..", "deploy"); // from control-plane/server
  private static final Pattern METRIC = Pattern.compile("\\bolmstead_[a-z_]+");

  private static Set<String> exported() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RolloutMetrics metrics = new RolloutMetrics(registry);
    metrics.stepped(
        java.util.List.of(new RolloutModel.Transition("ClusterFailed", null, "c", null)), 1000);
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(registry.scrape());
    while (m.find()) {
      names.add(m.group());
    }
    names.add("olmstead_agent_connected"); // the agent gateway's gauge (GatewayMetrics)
    return names;
  }

  private static Set<String> used(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(text);
    while (m.find()) {
      // the inventory's metrics are checked by InventoryDeployFilesTest; the catalog, bundle,
      // registry and webhook
      // ones on a live control plane's scrape by CatalogImageSourceIT
      if (!m.group().matches("olmstead_(inventory|catalog|bundle|registry|webhook)_.*")) {
        names.add(m.group());
      }
    }
    return names;
  }

  @Test
  void rulesAndDashboardReferOnlyToExportedMetrics() throws Exception {
    Set<String> exported = exported();
    String rules = Files.readString(DEPLOY.resolve("prometheus/olmstead-rules.yaml"));
    String dashboard = Files.readString(DEPLOY.resolve("grafana/olmstead-rollouts.json"));
    assertThat(new JsonObject(dashboard).getJsonArray("panels")).isNotEmpty();
    assertThat(used(rules)).isNotEmpty().isSubsetOf(exported);
    assertThat(used(dashboard)).isNotEmpty().isSubsetOf(exported);
    assertThat(rules)
        .contains(
            "OlmsteadRolloutPausedByFailures",
            "OlmsteadAgentsOffline",
            "OlmsteadResolutionFailures");
  }

  @Test
  void everyCounterSeriesExistsAtZeroBeforeItsFirstEvent() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new RolloutMetrics(registry);
    String scrape = registry.scrape();
    for (String command : RolloutMetrics.COMMANDS) {
      assertThat(scrape)
          .contains("olmstead_rollout_commands_total{command=\"" + command + "\"} 0.0");
    }
    assertThat(scrape)
        .contains(
            "olmstead_rollout_transitions_total{kind=\"ClusterFailed\"} 0.0",
            "olmstead_rollout_transitions_total{kind=\"Paused\"} 0.0",
            "olmstead_rollout_transitions_total{kind=\"other\"} 0.0");
  }

  @Test
  void aReplicaThatLosesTheEngineLockStopsExportingFleetGauges() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RolloutMetrics metrics = new RolloutMetrics(registry);
    metrics.leader(true);
    metrics.fleet(java.util.Map.of("connected", 7L), java.util.Map.of("Failed", 2L), 3);
    assertThat(registry.get("olmstead.fleet.resolution.failures").gauge().value()).isEqualTo(3.0);
    assertThat(registry.get("olmstead.fleet.clusters").tag("status", "connected").gauge().value())
        .isEqualTo(7.0);
    metrics.leader(false);
    assertThat(registry.get("olmstead.fleet.resolution.failures").gauge().value()).isZero();
    assertThat(registry.get("olmstead.fleet.clusters").tag("status", "connected").gauge().value())
        .isZero();
    assertThat(
            registry
                .get("olmstead.fleet.subscription.clusters")
                .tag("phase", "Failed")
                .gauge()
                .value())
        .isZero();
  }
}
