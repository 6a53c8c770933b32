package io.olmstead.controlplane.registry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code olmstead_bundle_unpacks_total{outcome}} and the histogram {@code
 * olmstead_bundle_unpack_duration_seconds {outcome}}: bundle image unpacks run by this replica,
 * from its claim to the stored result. Outcomes: {@code unpacked}, {@code retry} (the registry did
 * not answer; tried again later) and {@code failed} (gave up: the bundle's state is Failed). Every
 * series exists from the start at 0, so that {@code increase()} sees the first one.
 */
final class BundleUnpackMetrics {
  static final List<String> OUTCOMES = List.of("unpacked", "retry", "failed");
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofSeconds(2),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10),
    Duration.ofSeconds(30),
    Duration.ofMinutes(1),
    Duration.ofMinutes(2),
    Duration.ofMinutes(5)
  };

  private final Map<String, Counter> counts = new ConcurrentHashMap<>();
  private final Map<String, Timer> durations = new ConcurrentHashMap<>();

  BundleUnpackMetrics(MeterRegistry registry) {
    for (String outcome : OUTCOMES) {
      counts.put(
          outcome,
          Counter.builder("olmstead.bundle.unpacks")
              .tag("outcome", outcome)
              .description("Bundle image unpacks by outcome (this replica)")
              .register(registry));
      durations.put(
          outcome,
          Timer.builder("olmstead.bundle.unpack.duration")
              .tag("outcome", outcome)
              .serviceLevelObjectives(BUCKETS)
              .maximumExpectedValue(Duration.ofMinutes(10))
              .description("Time from claiming a bundle image to storing its objects or failure")
              .register(registry));
    }
  }

  void finished(String outcome, long nanos) {
    counts.get(outcome).increment();
    durations.get(outcome).record(Duration.ofNanos(nanos));
  }
}
