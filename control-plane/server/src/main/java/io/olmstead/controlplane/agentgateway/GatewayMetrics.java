package io.olmstead.controlplane.agentgateway;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.ProtocolCodec;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The gateway's {@code olmstead_agent_*} meters. Labels are bounded: message types come from the
 * protocol's fixed set (anything else is "unknown"), rejection reasons from {@link CloseReason}.
 */
final class GatewayMetrics {
  private static final String STATUS_DROPPED = "olmstead_agent_status_dropped";
  private static final String DESIRED_COMPUTED = "olmstead_agent_desired_computations";
  private final MeterRegistry registry;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final DistributionSummary batchSize;
  private final Timer batchLatency;

  GatewayMetrics(MeterRegistry registry, Supplier<Number> connected) {
    this.registry = registry;
    Gauge.builder("olmstead_agent_connected", connected)
        .description("Agents connected to this replica")
        .register(registry);
    this.batchSize =
        DistributionSummary.builder("olmstead_agent_ingest_batch_rows")
            .description("Status rows written per ingestion batch")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    this.batchLatency =
        Timer.builder("olmstead_agent_ingest_batch_latency")
            .description("Time from the first report of a batch to its commit")
            .publishPercentiles(0.5, 0.99)
            .register(registry);
    // Registered at zero, so that increase() sees the first drop.
    counter(STATUS_DROPPED, "reason", "not-placed");
    registry.counter(DESIRED_COMPUTED);
  }

  /**
   * A publishing pass computed the desired state of {@code clusters} connected clusters (each
   * compared with what it was last sent, and sent where it differs).
   */
  void desiredComputed(int clusters) {
    registry.counter(DESIRED_COMPUTED).increment(clusters);
  }

  /** Status items about subscriptions not placed on the reporting cluster, dropped unstored. */
  void statusDropped(int items) {
    counter(STATUS_DROPPED, "reason", "not-placed").increment(items);
  }

  void received(String type) {
    counter("olmstead_agent_messages_in", "type", bounded(type)).increment();
  }

  void sent(String type) {
    counter("olmstead_agent_messages_out", "type", bounded(type)).increment();
  }

  void rejected(CloseReason reason) {
    counter("olmstead_agent_rejected_messages", "reason", reason.reason()).increment();
  }

  void connectionRefused(String reason) {
    counter("olmstead_agent_refused_connections", "reason", reason).increment();
  }

  void enrolled(String outcome) {
    counter("olmstead_agent_enrollments", "outcome", outcome).increment();
  }

  /**
   * A catalog content request: served from the cache (hit), joined a load in progress (shared), or
   * loaded (miss).
   */
  void catalogCache(String result) {
    counter("olmstead_agent_catalog_cache_requests", "result", result).increment();
  }

  void catalogCompressed() {
    registry.counter("olmstead_agent_catalog_compressions").increment();
  }

  void catalogCacheBytes(Supplier<Number> bytes) {
    Gauge.builder("olmstead_agent_catalog_cache_bytes", bytes)
        .description("Catalog and bundle content (as stored and gzipped) kept in memory for agents")
        .register(registry);
  }

  void batch(int rows, Duration latency) {
    batchSize.record(rows);
    batchLatency.record(latency);
  }

  private Counter counter(String name, String tag, String value) {
    return counters.computeIfAbsent(
        name + '|' + value, k -> Counter.builder(name).tag(tag, value).register(registry));
  }

  private static String bounded(String type) {
    return ProtocolCodec.TYPES.contains(type) ? type : "unknown";
  }
}
