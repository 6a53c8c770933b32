package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.k8s.OlmPresence;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.WorkloadStatus;
import io.olmstead.agent.testing.SharedCatalogs;
import io.olmstead.agent.testing.SimFixture;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A guest that runs OLM (as every HyperShift guest does): OLM's CRDs are present, a CSV of etcd
 * runs in one namespace. The agent refuses etcd there ({@code Failed/ManagedByOLM} naming the CSV,
 * nothing written), installs it in a namespace OLM does not manage using OLM's own
 * OperatorCondition CRD, and never writes any of OLM's CRDs.
 */
class OlmCoexistenceIT {
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final List<String> OLM_CRDS =
      List.of(
          OlmPresence.CSV_CRD, "subscriptions.operators.coreos.com", OperatorConditions.CRD_NAME);
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private SimFixture sim;

  @BeforeEach
  void start() throws Exception {
    SharedCatalogs.bundled();
    sim = new SimFixture(false);
  }

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void aPackageOlmRunsInTheNamespaceIsRefusedAsManagedByOlmAndOlmsCrdsAreNeverWritten()
      throws Exception {
    KubernetesClient client = sim.cluster.client();
    for (String crd : OLM_CRDS) {
      create(client, olmCrd(crd));
    }
    create(client, namespace("etcd-ns"));
    create(client, csv("etcd-ns", "etcdoperator.v0.9.2", "etcd"));
    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () -> {
              for (String crd : OLM_CRDS) {
                assertThat(
                        WorkloadStatus.established(
                            sim.get(CRD_API, "CustomResourceDefinition", null, crd).orElseThrow()))
                    .isTrue();
              }
            });
    Map<String, String> versionsBefore = resourceVersions();

    SubscriptionToReconcile managed =
        SubscriptionToReconcile.of(
            "etcd", SharedCatalogs.CATALOG, "etcd", "singlenamespace-alpha", "etcd-ns", "0.9.2");
    SubscriptionToReconcile free =
        SubscriptionToReconcile.of(
            "etcd-free",
            SharedCatalogs.CATALOG,
            "etcd",
            "singlenamespace-alpha",
            "etcd-free",
            "0.9.2");
    sim.desire(managed, free);

    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              SubscriptionStatus refused = sim.sink.latest("etcd").orElseThrow();
              assertThat(refused.phase()).as(refused.toString()).isEqualTo("Failed");
              assertThat(refused.reason()).isEqualTo(SubscriptionStatus.MANAGED_BY_OLM);
              assertThat(refused.message()).contains("ClusterServiceVersion etcdoperator.v0.9.2");
              assertThat(sim.sink.latest("etcd-free").orElseThrow().phase()).isEqualTo("Succeeded");
            });
    assertThat(sim.get("apps/v1", "Deployment", "etcd-ns", "etcd-operator"))
        .as("nothing written for etcd in etcd-ns")
        .isEmpty();
    assertThat(
            sim.get(
                OperatorConditions.API_VERSION,
                OperatorConditions.KIND,
                "etcd-ns",
                "etcdoperator.v0.9.2"))
        .as("the agent makes no OperatorCondition where OLM's CSV of that name lives")
        .isEmpty();
    assertThat(sim.get("apps/v1", "Deployment", "etcd-free", "etcd-operator")).isPresent();
    assertThat(sim.list(OperatorConditions.API_VERSION, OperatorConditions.KIND))
        .as("OLM's CRD serves the agent's")
        .anyMatch(oc -> "etcd-free".equals(oc.path("metadata").path("namespace").asText()));
    assertThat(resourceVersions())
        .as("OLM's CRDs and CSV are never written")
        .isEqualTo(versionsBefore);
    assertThat(
            OperatorConditions.ours(
                sim.get(CRD_API, "CustomResourceDefinition", null, OperatorConditions.CRD_NAME)
                    .orElseThrow()))
        .isFalse();
  }

  private Map<String, String> resourceVersions() {
    Map<String, String> versions = new LinkedHashMap<>();
    for (String crd : OLM_CRDS) {
      versions.put(
          crd,
          sim.get(CRD_API, "CustomResourceDefinition", null, crd)
              .orElseThrow()
              .path("metadata")
              .path("resourceVersion")
              .asText());
    }
    versions.put(
        "csv",
        sim.get(OlmPresence.API_VERSION, OlmPresence.CSV_KIND, "etcd-ns", "etcdoperator.v0.9.2")
            .orElseThrow()
            .path("metadata")
            .path("resourceVersion")
            .asText());
    return versions;
  }

  private static void create(KubernetesClient client, ObjectNode object) {
    GenericKubernetesResource resource =
        client.getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
    client
        .genericKubernetesResources(
            new ResourceKinds()
                .context(object.path("apiVersion").asText(), object.path("kind").asText()))
        .resource(resource)
        .create();
  }

  /** OLM's CRD as OLM ships it: no Olmstead label, already Established. */
  static ObjectNode olmCrd(String name) {
    String plural = name.substring(0, name.indexOf('.'));
    String kind =
        switch (plural) {
          case "clusterserviceversions" -> "ClusterServiceVersion";
          case "subscriptions" -> "Subscription";
          default -> "OperatorCondition";
        };
    ObjectNode crd =
        JSON.objectNode().put("apiVersion", CRD_API).put("kind", "CustomResourceDefinition");
    crd.putObject("metadata")
        .put("name", name)
        .putObject("annotations")
        .put("controller-gen.kubebuilder.io/version", "v0.16.4");
    ObjectNode spec =
        crd.putObject("spec").put("group", "operators.coreos.com").put("scope", "Namespaced");
    spec.putObject("names").put("kind", kind).put("plural", plural);
    spec.putArray("versions")
        .addObject()
        .put("name", kind.equals("OperatorCondition") ? "v2" : "v1alpha1")
        .put("served", true)
        .put("storage", true);
    crd.putObject("status")
        .putArray("conditions")
        .addObject()
        .put("type", "Established")
        .put("status", "True");
    return crd;
  }

  private static ObjectNode namespace(String name) {
    ObjectNode ns = JSON.objectNode().put("apiVersion", "v1").put("kind", "Namespace");
    ns.putObject("metadata").put("name", name);
    return ns;
  }

  /** A CSV as OLM leaves it: the bundle's properties (olm.package among them) in its annotation. */
  static ObjectNode csv(String namespace, String name, String packageName) {
    ObjectNode csv =
        JSON.objectNode()
            .put("apiVersion", OlmPresence.API_VERSION)
            .put("kind", OlmPresence.CSV_KIND);
    ObjectNode meta = csv.putObject("metadata").put("name", name).put("namespace", namespace);
    meta.putObject("annotations")
        .put(
            "operatorframework.io/properties",
            "{\"properties\":[{\"type\":\"olm.package\","
                + "\"value\":{\"packageName\":\""
                + packageName
                + "\",\"version\":\"0.9.2\"}}]}");
    meta.putObject("labels").put("olm.managed", "true");
    csv.putObject("status").put("phase", "Succeeded");
    return csv;
  }
}
