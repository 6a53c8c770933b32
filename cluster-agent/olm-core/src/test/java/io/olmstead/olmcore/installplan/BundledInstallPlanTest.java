package io.olmstead.olmcore.installplan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.resolver.RealCatalogs;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every bundle of ../shared/catalogs/bundled yields an install plan (skipped when absent). */
class BundledInstallPlanTest {
  private final InstallPlanner planner = new InstallPlanner();

  /**
   * A target set the CSV's install modes allow: all namespaces if possible, else own, single,
   * multi.
   */
  private static List<String> allowedTargets(JsonNode csv, String namespace) {
    Set<String> supported = new java.util.HashSet<>();
    csv.path("spec")
        .path("installModes")
        .forEach(
            m -> {
              if (m.path("supported").asBoolean()) {
                supported.add(m.path("type").asText());
              }
            });
    if (supported.contains("AllNamespaces")) {
      return List.of("");
    }
    if (supported.contains("OwnNamespace")) {
      return List.of(namespace);
    }
    if (supported.contains("SingleNamespace")) {
      return List.of("team-a");
    }
    return List.of("team-a", "team-b");
  }

  @Test
  void everyBundledBundleHasAnInstallPlan() throws Exception {
    Catalog bundled = RealCatalogs.bundled();
    int planned = 0;
    for (CatalogPackage pkg : bundled.packages()) {
      for (Bundle bundle : pkg.bundles()) {
        JsonNode csv = null;
        List<String> crdNames = new ArrayList<>();
        for (var object : bundle.objects()) {
          JsonNode m = object.manifest();
          if (m.path("kind").asText().equals("ClusterServiceVersion")) {
            csv = m;
          } else if (m.path("kind").asText().equals("CustomResourceDefinition")) {
            crdNames.add(m.path("metadata").path("name").asText());
          }
        }
        assertThat(csv).as(bundle.name()).isNotNull();
        InstallPlanResult r =
            planner.plan(
                bundle, "operators", allowedTargets(csv, "operators"), SubscriptionConfig.empty());

        assertThat(r.succeeded()).as(bundle.name() + ": " + r.message()).isTrue();
        List<String> kinds = r.objects().stream().map(o -> o.path("kind").asText()).toList();
        assertThat(kinds.subList(0, crdNames.size()))
            .as(bundle.name())
            .allMatch("CustomResourceDefinition"::equals);
        Set<String> deployments =
            r.objects().stream()
                .filter(o -> o.path("kind").asText().equals("Deployment"))
                .map(o -> o.path("metadata").path("name").asText())
                .collect(Collectors.toSet());
        Set<String> expected = new java.util.HashSet<>();
        csv.path("spec")
            .path("install")
            .path("spec")
            .path("deployments")
            .forEach(d -> expected.add(d.path("name").asText()));
        assertThat(deployments).as(bundle.name()).isEqualTo(expected).isNotEmpty();
        assertThat(kinds)
            .as(bundle.name())
            .contains("ServiceAccount")
            .doesNotContain("ClusterServiceVersion");
        r.objects().stream()
            .filter(o -> o.path("kind").asText().equals("Deployment"))
            .forEach(
                d ->
                    d.path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .forEach(
                            c ->
                                assertThat(c.path("env").findValuesAsText("name"))
                                    .contains("OPERATOR_CONDITION_NAME")));
        // OLM names the aggregated ClusterRoles after the CRD, the auth bindings after the Service
        // and its
        // namespace (up to 253 characters); the rest fit a label value
        String longNames = ".*(-(admin|edit|view|crdview)|-system:auth-delegator|-auth-reader)$";
        r.objects().stream()
            .filter(o -> o.path("kind").asText().matches("(Cluster)?Role(Binding)?"))
            .forEach(
                o ->
                    assertThat(o.path("metadata").path("name").asText())
                        .as(bundle.name())
                        .hasSizeLessThanOrEqualTo(
                            o.path("metadata").path("name").asText().matches(longNames)
                                ? 253
                                : 63));
        assertThat(r.objects())
            .as(bundle.name())
            .allSatisfy(o -> assertThat(o.path("metadata").path("name").asText()).isNotEmpty());
        planned++;
      }
    }
    assertThat(planned).isEqualTo(bundled.bundleCount()).isEqualTo(29);
  }

  @Test
  void aSingleNamespaceOnlyBundleRefusesAllNamespaces() {
    Catalog bundled = RealCatalogs.bundled();
    Bundle etcd = bundled.bundle("etcd", "etcdoperator.v0.9.4").orElseThrow();

    InstallPlanResult r = planner.plan(etcd, "operators", List.of(""), SubscriptionConfig.empty());

    assertThat(r.reason()).isEqualTo("UnsupportedOperatorGroup");
    assertThat(r.message())
        .isEqualTo(
            "AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces");
  }
}
