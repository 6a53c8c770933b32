package io.olmstead.controlplane.registry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import java.util.Locale;

/**
 * {@code olmstead_registry_requests_total{registry, outcome}}: registry operations (resolve a
 * reference, pull an image) by registry host and outcome ({@code success} or the failure's kind:
 * {@code unreachable}, {@code denied}, {@code not_found}, {@code invalid}, {@code too_large},
 * {@code digest_mismatch}, {@code error}). Hosts are what users write in image references, so at
 * most {@value #MAX_REGISTRIES} keep their own label value; later ones count as {@code other}. One
 * instance is shared by every {@link RegistryPool} of a control plane.
 */
public final class RegistryMetrics {
  static final int MAX_REGISTRIES = 50;

  private final MeterRegistry registry;
  private final BoundedLabel hosts = new BoundedLabel(MAX_REGISTRIES);

  public RegistryMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Counts one finished operation on {@code host}; {@code failure} is null when it succeeded. */
  void request(String host, Throwable failure) {
    Counter.builder("olmstead.registry.requests")
        .tag("registry", hosts.of(host))
        .tag("outcome", outcome(failure))
        .description("Registry operations (resolve, pull) by registry host and outcome")
        .register(registry)
        .increment();
  }

  static String outcome(Throwable failure) {
    if (failure == null) {
      return "success";
    }
    if (failure instanceof RegistryException re) {
      return re.kind().name().toLowerCase(Locale.ROOT);
    }
    // the registry served the image, its content is not a valid bundle or catalog
    return failure instanceof BundleUnpackException ? "invalid" : "error";
  }
}
