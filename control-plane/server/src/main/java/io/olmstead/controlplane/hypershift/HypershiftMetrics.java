package io.olmstead.controlplane.hypershift;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The watcher's metrics; labels are fixed codes (decision kinds and reasons), never names or ids.
 */
final class HypershiftMetrics {
  private final MeterRegistry registry;
  private final AtomicInteger watching = new AtomicInteger();
  private final AtomicInteger hostedClusters = new AtomicInteger();
  private final AtomicInteger pastMax = new AtomicInteger();
  private final AtomicLong sweeps = new AtomicLong();

  HypershiftMetrics(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("olmstead_hypershift_watching", watching, AtomicInteger::get)
        .description("1 while this replica watches HostedClusters (leader, CRD present)")
        .register(registry);
    Gauge.builder("olmstead_hypershift_hosted_clusters", hostedClusters, AtomicInteger::get)
        .description("HostedClusters seen on the management cluster")
        .register(registry);
    Gauge.builder("olmstead_hypershift_upgrades_past_max", pastMax, AtomicInteger::get)
        .description(
            "hosted clusters whose desired OpenShift version passes an installed operator's"
                + " olm.maxOpenShiftVersion")
        .register(registry);
  }

  void pastMax(int clusters) {
    pastMax.set(clusters);
  }

  void pastMaxReported() {
    Counter.builder("olmstead_hypershift_upgrade_past_max_total")
        .description(
            "reports of a hosted cluster moving"
                + " to an OpenShift version past an installed operator's olm.maxOpenShiftVersion")
        .register(registry)
        .increment();
  }

  void decided(Decision decision) {
    Counter.builder("olmstead_hypershift_decisions_total")
        .description("HostedCluster decisions by kind and reason")
        .tag("decision", decision.kind().name().toLowerCase(Locale.ROOT))
        .tag("reason", decision.reason())
        .register(registry)
        .increment();
  }

  void failed(String stage) {
    Counter.builder("olmstead_hypershift_errors_total")
        .description("watcher failures by stage")
        .tag("stage", stage)
        .register(registry)
        .increment();
  }

  /** A resync's sweep ran: every HostedCluster queued before it has been decided. */
  void swept() {
    sweeps.incrementAndGet();
  }

  long sweeps() {
    return sweeps.get();
  }

  void watching(boolean on) {
    watching.set(on ? 1 : 0);
  }

  void hostedClusters(int count) {
    hostedClusters.set(count);
  }
}
