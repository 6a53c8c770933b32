package io.olmstead.controlplane.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.olmstead.controlplane.registry.RegistryException.Kind;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Registry request counts: outcomes named by the failure's kind, registry hosts bounded with the
 * rest as "other".
 */
class RegistryMetricsTest {

  @Test
  void outcomesAreSuccessOrTheFailuresKind() {
    assertThat(RegistryMetrics.outcome(null)).isEqualTo("success");
    assertThat(RegistryMetrics.outcome(new RegistryException(Kind.UNREACHABLE, "x")))
        .isEqualTo("unreachable");
    assertThat(RegistryMetrics.outcome(new RegistryException(Kind.DIGEST_MISMATCH, "x")))
        .isEqualTo("digest_mismatch");
    assertThat(RegistryMetrics.outcome(new BundleUnpackException("not a bundle")))
        .isEqualTo("invalid");
    assertThat(RegistryMetrics.outcome(new IllegalStateException("closed"))).isEqualTo("error");
  }

  @Test
  void registriesPastTheCapShareTheOtherLabelValue() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    RegistryMetrics metrics = new RegistryMetrics(meters);
    for (int i = 0; i < RegistryMetrics.MAX_REGISTRIES + 30; i++) {
      metrics.request("registry-" + i + ".example", null);
    }
    metrics.request("registry-0.example", new RegistryException(Kind.DENIED, "x"));
    List<String> hosts =
        meters.find("olmstead.registry.requests").counters().stream()
            .map(c -> c.getId().getTag("registry"))
            .distinct()
            .toList();
    assertThat(hosts)
        .hasSize(RegistryMetrics.MAX_REGISTRIES + 1)
        .contains("registry-0.example", "other")
        .doesNotContain("registry-" + RegistryMetrics.MAX_REGISTRIES + ".example");
    assertThat(
            meters
                .get("olmstead.registry.requests")
                .tags("registry", "other", "outcome", "success")
                .counter()
                .count())
        .isEqualTo(30);
    assertThat(
            meters
                .get("olmstead.registry.requests")
                .tags("registry", "registry-0.example", "outcome", "denied")
                .counter()
                .count())
        .isEqualTo(1);
  }
}
