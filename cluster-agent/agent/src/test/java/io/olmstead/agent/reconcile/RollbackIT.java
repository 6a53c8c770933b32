package io.olmstead.agent.reconcile;

import static io.olmstead.agent.testing.SimFixture.etcd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import java.time.Duration;
import java.util.List;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fleet rollbacks (a rollout's approved version lowered below the installed version) against a
 * simulated cluster with real bundles: etcd's CRDs are the same in 0.9.2 and 0.9.4, so its rollback
 * goes through; edited copies of them are refused.
 */
class RollbackIT {
  private static final String OC_API = "operators.coreos.com/v2";
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String ETCD_CLUSTERS = "etcdclusters.etcd.database.coreos.com";
  private static final String V092 = "etcdoperator.v0.9.2";
  private static final String V094 = "etcdoperator.v0.9.4";
  private SimFixture sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  private static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(30)).ignoreExceptions();
  }

  @Test
  void rollsEtcdBackFrom094To092AndLeavesNoObjectOf094() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false);
    sim.desire(etcd("0.9.2"));
    awaitSucceeded(V092);
    sim.desire(etcd("0.9.4"));
    awaitSucceeded(V094);
    assertThat(objectsOf(V094)).isNotEmpty();

    sim.desire(etcd("0.9.2").withRollbackTo("0.9.2"));
    awaitSucceeded(V092);
    eventually().untilAsserted(() -> assertThat(objectsOf(V094)).isEmpty());
    assertThat(sim.get(OC_API, "OperatorCondition", "etcd-ns", V094)).isEmpty();
    assertThat(
            sim.label(
                sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow(),
                ManagedLabels.BUNDLE))
        .isEqualTo(V092);
    assertThat(objectsOf(V092))
        .extracting(o -> o.path("kind").asText())
        .contains("Deployment", "Role", "OperatorCondition");
    assertThat(sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS)).isPresent();
    // the way down was reported like an upgrade: 0.9.4 running while 0.9.2 was being installed
    assertThat(sim.sink.history("etcd"))
        .anySatisfy(
            s -> {
              assertThat(s.installedVersion()).isEqualTo("0.9.4");
              assertThat(s.targetVersion()).isEqualTo("0.9.2");
              assertThat(s.phase()).isIn("Pending", "InstallReady", "Installing");
            });
  }

  @Test
  void aLowerMaxVersionThatIsNoRolloutsRollbackKeepsWhatRunsAsOlmWould() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false);
    sim.desire(etcd("0.9.4"));
    awaitSucceeded(V094);
    sim.desire(etcd("0.9.2")); // e.g. a lower pin or channel head: not a rollout's approval
    sim.awaitPasses("etcd-ns", 2); // a couple of passes that began with 0.9.2 desired
    assertThat(objectsOf(V092)).isEmpty();
    assertThat(
            sim.label(
                sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow(),
                ManagedLabels.BUNDLE))
        .isEqualTo(V094);
    assertThat(sim.sink.latest("etcd").orElseThrow().installedVersion()).isEqualTo("0.9.4");
  }

  @Test
  void refusesARollbackWhoseOlderCrdDropsAStoredVersion() throws Exception {
    // As if 0.9.4 had introduced etcdclusters v1 and stored objects in it; 0.9.2 only knows
    // v1beta2.
    sim =
        new SimFixture(
            SharedCatalogs.etcdWithCrd(
                V094,
                ETCD_CLUSTERS,
                crd -> {
                  ArrayNode versions = (ArrayNode) crd.path("spec").path("versions");
                  ObjectNode v1 = ((ObjectNode) versions.get(0).deepCopy()).put("name", "v1");
                  ((ObjectNode) versions.get(0)).put("storage", false);
                  versions.add(v1);
                }));
    sim.desire(etcd("0.9.4"));
    awaitSucceeded(V094);
    assertThat(
            sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS)
                .orElseThrow()
                .path("status")
                .path("storedVersions")
                .toString())
        .contains("\"v1\"");

    sim.desire(etcd("0.9.2").withRollbackTo("0.9.2"));
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo("Failed");
              assertThat(s.reason()).isEqualTo(SubscriptionStatus.DOWNGRADE_REFUSED);
              assertThat(s.message())
                  .startsWith("downgrade to " + V092 + " refused: ")
                  .contains("risk of data loss updating \"" + ETCD_CLUSTERS + "\"")
                  .contains("removes version v1 ");
              assertThat(s.installedBundle()).isEqualTo(V094);
              assertThat(s.targetVersion()).isEqualTo("0.9.2");
            });
    sim.awaitPasses("etcd-ns", 1); // a pass later, still held with nothing of 0.9.2 written
    assertThat(sim.sink.latest("etcd").orElseThrow().reason())
        .isEqualTo(SubscriptionStatus.DOWNGRADE_REFUSED);
    assertThat(objectsOf(V092)).isEmpty();
    assertThat(
            sim.label(
                sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator").orElseThrow(),
                ManagedLabels.BUNDLE))
        .isEqualTo(V094);
    assertThat(
            sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS)
                .orElseThrow()
                .path("spec")
                .path("versions")
                .toString())
        .contains("\"v1\"");
  }

  @Test
  void refusesARollbackWhoseOlderSchemaRejectsAnExistingResourceUntilItIsFixed() throws Exception {
    // As if 0.9.2 had allowed at most 3 members and 0.9.4 lifted that limit.
    sim =
        new SimFixture(
            SharedCatalogs.etcdWithCrd(
                V092,
                ETCD_CLUSTERS,
                crd -> {
                  ObjectNode spec =
                      (ObjectNode)
                          crd.path("spec")
                              .path("versions")
                              .get(0)
                              .path("schema")
                              .path("openAPIV3Schema")
                              .path("properties")
                              .path("spec");
                  spec.putObject("properties")
                      .putObject("size")
                      .put("type", "integer")
                      .put("maximum", 3);
                }));
    sim.desire(etcd("0.9.4"));
    awaitSucceeded(V094);
    sim.resources
        .kinds()
        .learn(sim.get(CRD_API, "CustomResourceDefinition", null, ETCD_CLUSTERS).orElseThrow());
    sim.resources.apply(etcdCluster(5));

    sim.desire(etcd("0.9.2").withRollbackTo("0.9.2"));
    eventually()
        .untilAsserted(
            () -> {
              SubscriptionStatus s = sim.sink.latest("etcd").orElseThrow();
              assertThat(s.phase()).isEqualTo("Failed");
              assertThat(s.reason()).isEqualTo(SubscriptionStatus.DOWNGRADE_REFUSED);
              assertThat(s.message())
                  .contains(
                      "error validating existing CRs against new CRD's schema for \""
                          + ETCD_CLUSTERS)
                  .contains("etcd-ns/big");
              assertThat(s.installedBundle()).isEqualTo(V094);
            });
    assertThat(objectsOf(V092)).isEmpty();

    sim.resources.apply(
        etcdCluster(3)); // the owner shrinks the cluster: the older schema accepts it now
    awaitSucceeded(V092);
    eventually().untilAsserted(() -> assertThat(objectsOf(V094)).isEmpty());
  }

  private static ObjectNode etcdCluster(int size) {
    ObjectNode cr =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
            .objectNode()
            .put("apiVersion", "etcd.database.coreos.com/v1beta2")
            .put("kind", "EtcdCluster");
    cr.putObject("metadata").put("name", "big").put("namespace", "etcd-ns");
    cr.putObject("spec").put("size", size);
    return cr;
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

  /** Every object of the kinds a cleanup sweeps that carries {@code bundle}'s ownership label. */
  private List<JsonNode> objectsOf(String bundle) {
    return ResourceKinds.COMMON.stream()
        .flatMap(k -> sim.list(k.apiVersion(), k.kind()).stream())
        .filter(o -> bundle.equals(sim.label(o, ManagedLabels.BUNDLE)))
        .toList();
  }
}
