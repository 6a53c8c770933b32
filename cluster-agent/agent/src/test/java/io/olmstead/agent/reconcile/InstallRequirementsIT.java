package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.olmcore.lifecycle.Requirements;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A bundle whose CSV requirements the cluster does not meet stays {@code
 * Pending/RequirementsNotMet} with nothing written, listing what is missing, and installs on a
 * later pass once they are met (passes driven one by one).
 */
class InstallRequirementsIT {
  private static final String BUNDLE = "etcdoperator.v0.9.2";
  private static final SubscriptionToReconcile ETCD =
      SubscriptionToReconcile.of(
          "etcd", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "etcd-ns", "0.9.2");
  private PassDriver driver;

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
  }

  private static CatalogProvider withCsv(Consumer<ObjectNode> change) {
    return SharedCatalogs.etcdWithObjects(
        BUNDLE,
        manifests ->
            manifests.stream()
                .filter(m -> "ClusterServiceVersion".equals(m.path("kind").asText()))
                .forEach(csv -> change.accept(csv.withObjectProperty("spec"))));
  }

  @Test
  void aBundleNeedingANewerKubernetesWaitsPendingThenInstallsOnceItsMinimumIsLowered()
      throws Exception {
    AtomicReference<CatalogProvider> catalog =
        new AtomicReference<>(withCsv(spec -> spec.put("minKubeVersion", "1.99.0")));
    driver = new PassDriver(catalog::get);
    for (int i = 0; i < 3; i++) {
      driver.pass("etcd-ns", ETCD);
    }
    SubscriptionStatus pending = driver.sink.latest("etcd").orElseThrow();
    assertThat(pending.phase()).isEqualTo("Pending");
    assertThat(pending.reason()).isEqualTo("RequirementsNotMet");
    assertThat(pending.message())
        .contains(
            "ClusterServiceVersion "
                + BUNDLE
                + ": PresentNotSatisfied (CSV version requirement not met: "
                + "minKubeVersion (1.99.0) > server version (1.31.0))");
    assertNothingWritten();

    catalog.set(withCsv(spec -> spec.put("minKubeVersion", "1.25.0")));
    driver.passUntil("Succeeded", "etcd-ns", ETCD);
  }

  @Test
  void aBundleNeedingANewerKubernetesReportsItsRequirementStatusAsAStructuredList()
      throws Exception {
    driver = new PassDriver(() -> withCsv(spec -> spec.put("minKubeVersion", "1.99.0")));
    for (int i = 0; i < 3; i++) {
      driver.pass("etcd-ns", ETCD);
    }
    SubscriptionStatus pending = driver.sink.latest("etcd").orElseThrow();

    assertThat(pending.csv().requirements())
        .containsExactly(
            new RequirementStatus(
                "operators.coreos.com",
                "v1alpha1",
                "ClusterServiceVersion",
                BUNDLE,
                Requirements.PRESENT_NOT_SATISFIED,
                "CSV version requirement not met: minKubeVersion (1.99.0) > server version (1.31.0)"));
    assertThat(ProtocolMapping.toProtocol(pending).csv().requirementStatus())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.kind() + " " + r.name() + " " + r.status())
                    .isEqualTo("ClusterServiceVersion " + BUNDLE + " PresentNotSatisfied"));
  }

  @Test
  void aBundleRequiringACrdNobodyProvidesWaitsUntilTheCrdIsServed() throws Exception {
    CatalogProvider catalog =
        withCsv(
            spec ->
                spec.withObjectProperty("customresourcedefinitions")
                    .putArray("required")
                    .addObject()
                    .put("name", "widgets.example.com")
                    .put("version", "v1")
                    .put("kind", "Widget"));
    driver = new PassDriver(() -> catalog);
    driver.pass("etcd-ns", ETCD);
    driver.pass("etcd-ns", ETCD);
    SubscriptionStatus pending = driver.sink.latest("etcd").orElseThrow();
    assertThat(pending.reason()).isEqualTo("RequirementsNotMet");
    assertThat(pending.message())
        .contains("CustomResourceDefinition widgets.example.com: NotPresent (CRD is not present)");
    assertNothingWritten();

    driver.write(widgetCrd());
    driver.passUntil("Succeeded", "etcd-ns", ETCD);
  }

  private void assertNothingWritten() throws Exception {
    assertThat(driver.list("apps/v1", "Deployment")).isEmpty();
    assertThat(
            driver.get(
                CrdWrites.CRD_API,
                CrdWrites.CRD_KIND,
                null,
                "etcdclusters.etcd.database.coreos.com"))
        .isEmpty();
    assertThat(driver.list("operators.coreos.com/v2", "OperatorCondition")).isEmpty();
  }

  private static ObjectNode widgetCrd() {
    ObjectNode crd =
        JsonNodeFactory.instance
            .objectNode()
            .put("apiVersion", CrdWrites.CRD_API)
            .put("kind", CrdWrites.CRD_KIND);
    crd.putObject("metadata").put("name", "widgets.example.com");
    ObjectNode spec = crd.putObject("spec").put("group", "example.com").put("scope", "Namespaced");
    spec.putObject("names")
        .put("kind", "Widget")
        .put("plural", "widgets")
        .put("singular", "widget");
    ObjectNode version =
        spec.putArray("versions")
            .addObject()
            .put("name", "v1")
            .put("served", true)
            .put("storage", true);
    version.putObject("schema").putObject("openAPIV3Schema").put("type", "object");
    return crd;
  }
}
