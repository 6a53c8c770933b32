package io.olmstead.agent.certs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.installplan.CertPlan;
import io.olmstead.olmcore.installplan.InstallPlanResult;
import io.olmstead.olmcore.installplan.InstallPlanner;
import io.olmstead.olmcore.installplan.ServingCert;
import io.olmstead.olmcore.installplan.ServingCertInjection;
import io.olmstead.olmcore.installplan.SubscriptionConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}: the goal is not a unit test). What webhooks
 * add to the CPU work of installing rabbitmq-messaging-topology-operator 1.19.3 (13 validating
 * webhooks): planning with its webhook definitions against planning without them, plus issuing the
 * certificate and filling it in. Prints medians and the first (cold) round.
 */
class WebhookSetupBenchTest {
  private static final int ROUNDS = 50;

  @Test
  void webhooksAndCertificatesAddUnder200MillisecondsToAnInstall() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    Bundle bundle =
        SharedCatalogs.bundled().packages().stream()
            .flatMap(p -> p.bundles().stream())
            .filter(b -> b.name().equals("rabbitmq-messaging-topology-operator.v1.19.3"))
            .findFirst()
            .orElseThrow();
    List<JsonNode> with = new ArrayList<>();
    for (BundleObject o : bundle.objects()) {
      with.add(o.manifest());
    }
    List<JsonNode> without =
        with.stream()
            .map(
                m -> {
                  ObjectNode copy = m.deepCopy();
                  if ("ClusterServiceVersion".equals(m.path("kind").asText())) {
                    copy.withObjectProperty("spec").remove("webhookdefinitions");
                  }
                  return (JsonNode) copy;
                })
            .toList();
    InstallPlanner planner = new InstallPlanner();
    CertIssuer issuer = new CertIssuer();
    double[] added = new double[ROUNDS];
    double[] certs = new double[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
      long t0 = System.nanoTime();
      planner.planManifests(without, "rmq", "og", List.of("rmq"), SubscriptionConfig.empty());
      long t1 = System.nanoTime();
      InstallPlanResult plan =
          planner.planManifests(with, "rmq", "og", List.of("rmq"), SubscriptionConfig.empty());
      long t2 = System.nanoTime();
      ServingCert cert =
          issuer.issue(CertPlan.hosts("messaging-topology-operator-service", "rmq"), Instant.now());
      List<JsonNode> filled =
          ServingCertInjection.inject(
              plan.objects(), Map.of("messaging-topology-operator-service", cert));
      long t3 = System.nanoTime();
      assertThat(filled).hasSize(plan.objects().size());
      certs[i] = (t3 - t2) / 1e6;
      added[i] = ((t2 - t1) - (t1 - t0) + (t3 - t2)) / 1e6;
    }
    System.out.printf(
        "BENCH webhook setup, topology operator 1.19.3, %d rounds: added per install median %.2f ms "
            + "(first %.2f ms); of which certificate issue + fill median %.2f ms (first %.2f ms)%n",
        ROUNDS, median(added), added[0], median(certs), certs[0]);
    assertThat(median(added)).isLessThan(200.0);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
