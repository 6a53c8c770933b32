package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import java.time.Duration;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Upgrade gates, manual approval, removal, drift and failures against a simulated cluster with real
 * bundles.
 */
class GatesAndLifecycleIT {
  private static final String OC_API = "operators.coreos.com/v2";
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String ETCD_CLUSTERS = "etcdclusters.etcd.database.coreos.com";
  private SimFixture sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  private SimFixture start(boolean failing) throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(failing);
    return sim;
  }

  /** Without a resync in the test's time frame: only informer events can make the agent act. */
  private SimFixture startEventDriven() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false, Duration.ofMinutes(10));
    return sim;
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(30)).ignoreExceptions();
  }

  @Test
  void upgradeableFalseBlocksTheUpgradeWithOperatorConditionNotUpgradeableUntilOverridden()
      throws Exception {
    startEventDriven().desire(etcd("0.9.2"));
    awaitSucceeded("etcdoperator.v0.9.2");
    ObjectNode oc =
        (ObjectNode)
            sim.get(OC_API, "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.2").orElseThrow();
    long generation = oc.path("metadata").path("generation").asLong(1);
    ArrayNode conditions = oc.withObjectProperty("spec").putArray("conditions");
    conditions
        .addObject()
        .put("type", "Upgradeable")
        .put("status", "False")
        .put("reason", "Migrating")
        .put("message", "data migration in progress")
        .put("observedGeneration", generation + 1)
        .put("lastTransitionTime", "2026-01-01T00:00:00Z");
    sim.resources.apply(
        oc); // the operator writes spec.conditions; the agent mirrors them into status like OLM
    sim.desire(etcd("0.9.4"));

    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo("Pending");
              assertThat(s.reason()).isEqualTo("OperatorConditionNotUpgradeable");
              assertThat(s.message())
                  .contains("operator is not upgradeable: data migration in progress");
              assertThat(s.installedBundle()).isEqualTo("etcdoperator.v0.9.2");
              assertThat(s.targetVersion()).isEqualTo("0.9.4");
            });
    assertThat(sim.get(OC_API, "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.4")).isEmpty();

    ObjectNode live =
        (ObjectNode)
            sim.get(OC_API, "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.2").orElseThrow();
    live.withObjectProperty("spec")
        .putArray("overrides")
        .addObject()
        .put("type", "Upgradeable")
        .put("status", "True")
        .put("reason", "Override")
        .put("message", "upgrade anyway")
        .put("lastTransitionTime", "2026-01-01T00:00:00Z");
    sim.resources.apply(live);
    awaitSucceeded("etcdoperator.v0.9.4");
  }

  @Test
  void manualApprovalWaitsForExactlyTheProposedBundle() throws Exception {
    start(false).desire(etcd("0.9.2").withApproval(SubscriptionToReconcile.Approval.MANUAL));
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo(SubscriptionStatus.REQUIRES_APPROVAL);
              assertThat(s.targetBundle()).isEqualTo("etcdoperator.v0.9.2");
            });
    sim.cluster.agent().approve("etcd", "etcdoperator.v0.9.0");
    sim.awaitPasses("etcd-ns", 1); // a pass after the approval: the wrong bundle approved nothing
    assertThat(sim.sink.latest("etcd").orElseThrow().phase())
        .isEqualTo(SubscriptionStatus.REQUIRES_APPROVAL);
    assertThat(sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator")).isEmpty();

    sim.cluster.agent().approve("etcd", "etcdoperator.v0.9.2");
    awaitSucceeded("etcdoperator.v0.9.2");
  }

  @Test
  void removalUninstallsTheOperatorButKeepsItsCrds() throws Exception {
    start(false).desire(etcd("0.9.2"));
    awaitSucceeded("etcdoperator.v0.9.2");
    sim.desire();
    eventually()
        .untilAsserted(
            () -> {
              assertThat(sim.sink.removed()).contains("etcd");
              assertThat(sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator")).isEmpty();
              assertThat(sim.get("v1", "ServiceAccount", "etcd-ns", "etcd-operator")).isEmpty();
              assertThat(sim.get(OC_API, "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.2"))
                  .isEmpty();
              assertThat(sim.list("rbac.authorization.k8s.io/v1", "Role")).isEmpty();
            });
    assertThat(sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS)).isPresent();
  }

  @Test
  void removalWithCrdsDeleteAlsoDeletesTheCrds() throws Exception {
    start(false).desire(etcd("0.9.2").withCrdRemoval(true));
    awaitSucceeded("etcdoperator.v0.9.2");
    sim.desire();
    eventually()
        .untilAsserted(
            () -> {
              assertThat(sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator")).isEmpty();
              assertThat(sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS))
                  .isEmpty();
            });
  }

  @Test
  void deletedAndEditedObjectsAreRestoredAndReported() throws Exception {
    start(false).desire(etcd("0.9.2"));
    awaitSucceeded("etcdoperator.v0.9.2");
    sim.resources.delete("apps/v1", "Deployment", "etcd-ns", "etcd-operator");
    JsonNode sa = sim.get("v1", "ServiceAccount", "etcd-ns", "etcd-operator").orElseThrow();
    ObjectNode edited = sa.deepCopy();
    edited
        .withObjectProperty("metadata")
        .withObjectProperty("labels")
        .put(ManagedLabels.BUNDLE, "tampered");
    sim.cluster
        .client()
        .genericKubernetesResources("v1", "ServiceAccount")
        .inNamespace("etcd-ns")
        .resource(
            sim.cluster
                .client()
                .getKubernetesSerialization()
                .convertValue(
                    edited, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
        .update();

    eventually()
        .untilAsserted(
            () -> {
              assertThat(sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator")).isPresent();
              assertThat(
                      sim.label(
                          sim.get("v1", "ServiceAccount", "etcd-ns", "etcd-operator").orElseThrow(),
                          ManagedLabels.BUNDLE))
                  .isEqualTo("etcdoperator.v0.9.2");
              assertThat(sim.sink.history("etcd"))
                  .anySatisfy(s -> assertThat(s.condition("DriftRestored")).isPresent());
            });
    awaitSucceeded("etcdoperator.v0.9.2");
  }

  @Test
  void refusesACrdChangeThatDropsAStoredVersion() throws Exception {
    start(false).desire(etcd("0.9.2"));
    awaitSucceeded("etcdoperator.v0.9.2");
    // As if an older operator had stored objects as v1beta1: the CRD serves it and lists it as
    // stored. Status
    // first: with only the status changed, a pass in between has nothing to restore.
    ObjectNode withStatus =
        (ObjectNode)
            sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS).orElseThrow();
    withStatus
        .withObjectProperty("status")
        .putArray("storedVersions")
        .add("v1beta1")
        .add("v1beta2");
    sim.resources.updateStatus(withStatus);
    ObjectNode crd =
        (ObjectNode)
            sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS).orElseThrow();
    ObjectNode old = ((ArrayNode) crd.path("spec").path("versions")).get(0).deepCopy();
    old.put("name", "v1beta1").put("storage", false);
    ((ArrayNode) crd.path("spec").path("versions")).add(old);
    sim.resources.apply(crd);
    assertThat(
            sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS)
                .orElseThrow()
                .path("status")
                .path("storedVersions")
                .toString())
        .contains("v1beta1");
    sim.desire(etcd("0.9.4"));

    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo("Failed");
              assertThat(s.message())
                  .contains("risk of data loss updating \"" + ETCD_CLUSTERS + "\"")
                  .contains("removes version v1beta1");
            });
    assertThat(sim.get(OC_API, "OperatorCondition", "etcd-ns", "etcdoperator.v0.9.4")).isEmpty();
    assertThat(
            sim.label(
                sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow(),
                ManagedLabels.BUNDLE))
        .isEqualTo("etcdoperator.v0.9.2");
  }

  @Test
  void deploymentsPastTheirProgressDeadlineFailTheInstall() throws Exception {
    start(true).desire(etcd("0.9.2"));
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo("Failed");
              assertThat(s.reason()).isEqualTo("InstallCheckFailed");
              assertThat(s.message()).contains("etcd-operator");
              assertThat(s.installedBundle()).isNull();
            });
  }

  private void awaitSucceeded(String bundle) {
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.installedBundle()).as(s.toString()).isEqualTo(bundle);
              assertThat(s.phase()).as(s.toString()).isEqualTo("Succeeded");
            });
  }
}
