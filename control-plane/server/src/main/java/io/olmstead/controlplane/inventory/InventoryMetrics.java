package io.olmstead.controlplane.inventory;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The {@code olmstead_inventory_*} meters. Labels are per package and per CRD, never per cluster,
 * and bounded: the {@link #MAX_CRD_SERIES} largest (package, CRD) pairs and the {@link
 * #MAX_PACKAGE_SERIES} most installed packages.
 */
final class InventoryMetrics {
  static final int MAX_CRD_SERIES = 500;
  static final int MAX_PACKAGE_SERIES = 200;
  static final List<String> OUTCOMES =
      List.of("stored", "unchanged", "coalesced", "refused", "failed");

  private final Map<String, Counter> reports;
  private final MultiGauge customResources;
  private final MultiGauge clusters;
  private final MultiGauge requestedCpu;
  private final MultiGauge requestedMemory;
  private final MultiGauge usedCpu;
  private final MultiGauge usedMemory;

  InventoryMetrics(MeterRegistry registry) {
    // Registered at zero, so that increase() sees the first report of each outcome.
    this.reports =
        OUTCOMES.stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    o -> o,
                    o ->
                        Counter.builder("olmstead_inventory_reports")
                            .tag("outcome", o)
                            .description(
                                "Inventory reports from agents: stored, unchanged (equal to the stored one), coalesced (a newer one replaced it before it was "
                                    + "stored), refused (absurd), failed (not stored)")
                            .register(registry)));
    this.customResources =
        MultiGauge.builder("olmstead_inventory_custom_resources")
            .description("Custom resources over the fleet per operator package and CRD")
            .register(registry);
    this.clusters =
        MultiGauge.builder("olmstead_inventory_clusters")
            .description("Clusters where an operator package is installed (reported Succeeded)")
            .register(registry);
    this.requestedCpu =
        MultiGauge.builder("olmstead_inventory_requested_cpu_millicores")
            .description(
                "CPU requested by an operator package's pods and its custom resources' pods")
            .register(registry);
    this.requestedMemory =
        MultiGauge.builder("olmstead_inventory_requested_memory_bytes")
            .description(
                "Memory requested by an operator package's pods and its custom resources' pods")
            .register(registry);
    this.usedCpu =
        MultiGauge.builder("olmstead_inventory_used_cpu_millicores")
            .description("CPU used (metrics.k8s.io, where served) by those pods")
            .register(registry);
    this.usedMemory =
        MultiGauge.builder("olmstead_inventory_used_memory_bytes")
            .description("Memory used (metrics.k8s.io, where served) by those pods")
            .register(registry);
  }

  void report(String outcome) {
    reports.get(outcome).increment();
  }

  /** Replaces the fleet gauges with the store's aggregates. */
  void fleet(List<JsonObject> byCrd, List<JsonObject> byPackage) {
    customResources.register(
        byCrd.stream()
            .map(
                r ->
                    MultiGauge.Row.of(
                        Tags.of("package", r.getString("package"), "crd", r.getString("crd")),
                        r.getLong("count")))
            .toList(),
        true);
    clusters.register(rows(byPackage, r -> r.getLong("clusters")), true);
    requestedCpu.register(rows(byPackage, r -> r.getLong("cpu")), true);
    requestedMemory.register(rows(byPackage, r -> r.getLong("memory")), true);
    usedCpu.register(rows(byPackage, r -> r.getLong("usedCpu")), true);
    usedMemory.register(rows(byPackage, r -> r.getLong("usedMemory")), true);
  }

  private static List<MultiGauge.Row<?>> rows(
      List<JsonObject> byPackage, ToLongFunction<JsonObject> value) {
    return byPackage.stream()
        .<MultiGauge.Row<?>>map(
            r ->
                MultiGauge.Row.of(Tags.of("package", r.getString("package")), value.applyAsLong(r)))
        .toList();
  }
}
