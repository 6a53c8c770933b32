package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.catalog.CatalogFormat;
import io.olmstead.controlplane.catalog.CatalogIngest;
import io.olmstead.controlplane.catalog.IngestResult;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.fbc.ValidationResult;
import io.olmstead.olmcore.installplan.InstallPlanResult;
import io.olmstead.olmcore.installplan.InstallPlanner;
import io.olmstead.olmcore.installplan.SubscriptionConfig;
import io.olmstead.olmcore.resolver.CatalogSource;
import io.olmstead.olmcore.resolver.Resolution;
import io.olmstead.olmcore.resolver.ResolvedBundle;
import io.olmstead.olmcore.resolver.Resolver;
import io.olmstead.olmcore.resolver.SubscriptionRequest;
import io.olmstead.olmcore.semver.Version;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The packaged demo catalog: valid in STRICT mode, its dependency resolves, and every bundle plans
 * an install.
 */
class DemoCatalogTest {

  private static Catalog strictCatalog() throws Exception {
    ValidationResult result =
        CatalogValidator.validate(
            new FbcParser().parse("catalog.yaml", DemoCatalog.content()), ValidationMode.STRICT);
    assertThat(result.errors()).isEmpty();
    assertThat(result.catalog()).isPresent();
    return result.catalog().get();
  }

  @Test
  void demoCatalogIsValidInStrictModeWithItsTwoPackages() throws Exception {
    Catalog catalog = strictCatalog();
    assertThat(catalog.packages())
        .extracting(p -> p.name())
        .containsExactlyInAnyOrder("olmstead-demo-operator", "olmstead-demo-db");
    assertThat(catalog.pkg("olmstead-demo-operator").orElseThrow().bundles())
        .extracting(Bundle::name)
        .containsExactlyInAnyOrder(
            "olmstead-demo-operator.v0.1.0",
            "olmstead-demo-operator.v0.2.0",
            "olmstead-demo-operator.v0.3.0");
    assertThat(catalog.pkg("olmstead-demo-db").orElseThrow().defaultChannel()).isEqualTo("stable");
  }

  @Test
  void theUploadIngestAcceptsItWithoutWarnings() {
    IngestResult result =
        new CatalogIngest(16L * 1024 * 1024)
            .ingest(DemoCatalog.content(), CatalogFormat.YAML, ValidationMode.STRICT);
    assertThat(result)
        .isInstanceOfSatisfying(
            IngestResult.Accepted.class, accepted -> assertThat(accepted.warnings()).isEmpty());
  }

  @Test
  void operatorFromZeroTwoOnPullsInTheDemoDatabase() throws Exception {
    Catalog catalog = strictCatalog();
    Resolution resolution =
        new Resolver()
            .resolve(
                List.of(new CatalogSource("demo", 0, catalog)),
                List.of(
                    new SubscriptionRequest(
                        "demo-operator",
                        "demo",
                        "olmstead-demo-operator",
                        "stable",
                        null,
                        Version.parse("0.2.0"))),
                List.of());
    assertThat(resolution.satisfiable()).as(resolution.message()).isTrue();
    assertThat(resolution.bySubscription().get("demo-operator").bundle().name())
        .isEqualTo("olmstead-demo-operator.v0.2.0");
    assertThat(resolution.dependencies())
        .extracting(ResolvedBundle::bundle)
        .extracting(Bundle::name)
        .containsExactly("olmstead-demo-db.v1.1.0");
  }

  @Test
  void operatorZeroOneNeedsNoDependency() throws Exception {
    Resolution resolution =
        new Resolver()
            .resolve(
                List.of(new CatalogSource("demo", 0, strictCatalog())),
                List.of(
                    new SubscriptionRequest(
                        "demo-operator",
                        "demo",
                        "olmstead-demo-operator",
                        "stable",
                        "olmstead-demo-operator.v0.1.0",
                        Version.parse("0.1.0"))),
                List.of());
    assertThat(resolution.satisfiable()).as(resolution.message()).isTrue();
    assertThat(resolution.dependencies()).isEmpty();
  }

  @Test
  void everyBundleCarriesACsvAndACrdAndPlansAnInstall() throws Exception {
    Catalog catalog = strictCatalog();
    for (var pkg : catalog.packages()) {
      for (Bundle bundle : pkg.bundles()) {
        assertThat(bundle.objects())
            .extracting(BundleObject::kind)
            .containsExactlyInAnyOrder("ClusterServiceVersion", "CustomResourceDefinition");
        InstallPlanResult plan =
            new InstallPlanner().plan(bundle, "demo", List.of("demo"), SubscriptionConfig.empty());
        assertThat(plan.succeeded()).as(bundle.name() + ": " + plan.message()).isTrue();
        assertThat(plan.objects())
            .extracting(o -> o.path("kind").asText())
            .contains(
                "CustomResourceDefinition", "ServiceAccount", "Role", "RoleBinding", "Deployment");
      }
    }
  }
}
