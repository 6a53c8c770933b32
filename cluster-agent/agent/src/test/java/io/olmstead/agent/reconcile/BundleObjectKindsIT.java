package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.TestCrds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The objects OLM installs from a bundle's manifests beyond the operator itself: an object whose
 * API the cluster does not serve fails the install naming the API with nothing applied, and
 * installs once the API is served; a kind OLM does not install is refused; they go with an
 * uninstall and with an upgrade to a bundle without them.
 */
class BundleObjectKindsIT {
  private static final String MONITORING = "monitoring.coreos.com/v1";
  private static final SubscriptionToReconcile ETCD_092 =
      SubscriptionToReconcile.of(
          "etcd", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "etcd-ns", "0.9.2");
  private static final SubscriptionToReconcile ETCD_094 =
      SubscriptionToReconcile.of(
          "etcd", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "etcd-ns", "0.9.4");
  private PassDriver driver;

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
  }

  /** etcd 0.9.2 shipping one more manifest, as bundles with metrics do. */
  private static CatalogProvider etcdWith(ObjectNode extra) {
    return SharedCatalogs.etcdWithObjects("etcdoperator.v0.9.2", manifests -> manifests.add(extra));
  }

  private static ObjectNode object(String apiVersion, String kind, String name) {
    ObjectNode o =
        JsonNodeFactory.instance.objectNode().put("apiVersion", apiVersion).put("kind", kind);
    o.putObject("metadata").put("name", name);
    return o;
  }

  private static ObjectNode serviceMonitor() {
    ObjectNode monitor = object(MONITORING, "ServiceMonitor", "etcd-operator-metrics");
    monitor
        .putObject("spec")
        .putObject("selector")
        .putObject("matchLabels")
        .put("name", "etcd-operator");
    return monitor;
  }

  @Test
  void
      aServiceMonitorOnAClusterWithoutMonitoringFailsNamingTheApiWithNothingAppliedThenInstallsOnceServed()
          throws Exception {
    CatalogProvider catalog = etcdWith(serviceMonitor());
    driver = new PassDriver(() -> catalog);
    driver.pass("etcd-ns", ETCD_092);
    driver.pass("etcd-ns", ETCD_092);
    SubscriptionStatus failed = driver.sink.latest("etcd").orElseThrow();
    assertThat(failed.phase()).isEqualTo("Failed");
    assertThat(failed.message())
        .contains("Unable to find GVK in discovery: monitoring.coreos.com v1 ServiceMonitor");
    assertThat(driver.list("apps/v1", "Deployment")).isEmpty();
    assertThat(driver.list("v1", "ServiceAccount")).isEmpty();
    assertThat(driver.list("operators.coreos.com/v2", "OperatorCondition")).isEmpty();
    assertThat(
            driver.get(
                CrdWrites.CRD_API,
                CrdWrites.CRD_KIND,
                null,
                "etcdclusters.etcd.database.coreos.com"))
        .as("not even the bundle's CRDs")
        .isEmpty();

    driver.write(TestCrds.serviceMonitor());
    driver.passUntil("Succeeded", "etcd-ns", ETCD_092);
    assertThat(
            driver
                .get(MONITORING, "ServiceMonitor", "etcd-ns", "etcd-operator-metrics")
                .orElseThrow()
                .path("metadata")
                .path("labels")
                .path(ManagedLabels.SUBSCRIPTION)
                .asText())
        .isEqualTo("etcd");

    driver.pass("etcd-ns"); // the subscription is removed
    assertThat(driver.get(MONITORING, "ServiceMonitor", "etcd-ns", "etcd-operator-metrics"))
        .isEmpty();
  }

  @Test
  void anUpgradeToABundleWithoutTheObjectRemovesIt() throws Exception {
    CatalogProvider catalog = etcdWith(object("policy/v1", "PodDisruptionBudget", "etcd-operator"));
    driver = new PassDriver(() -> catalog);
    driver.passUntil("Succeeded", "etcd-ns", ETCD_092);
    assertThat(driver.get("policy/v1", "PodDisruptionBudget", "etcd-ns", "etcd-operator"))
        .isPresent();

    for (int i = 0; i < 20 && !"etcdoperator.v0.9.4".equals(installed()); i++) {
      driver.pass("etcd-ns", ETCD_094);
    }
    assertThat(installed()).isEqualTo("etcdoperator.v0.9.4");
    assertThat(driver.get("policy/v1", "PodDisruptionBudget", "etcd-ns", "etcd-operator"))
        .isEmpty();
  }

  @Test
  void aKindOlmDoesNotInstallIsRefusedWithOlmsMessage() throws Exception {
    CatalogProvider catalog = etcdWith(object("batch/v1", "Job", "migrate"));
    driver = new PassDriver(() -> catalog);
    driver.pass("etcd-ns", ETCD_092);
    driver.pass(
        "etcd-ns",
        ETCD_092); // the first pass waits for the OperatorCondition CRD to be Established
    SubscriptionStatus failed = driver.sink.latest("etcd").orElseThrow();
    assertThat(failed.phase()).isEqualTo("Failed");
    assertThat(failed.message())
        .contains(
            "the InstallPlan contains invalid data: UnsupportedResource batch/v1 Job migrate");
    assertThat(driver.list("apps/v1", "Deployment")).isEmpty();
  }

  private String installed() {
    return driver.sink.latest("etcd").map(SubscriptionStatus::installedBundle).orElse(null);
  }
}
