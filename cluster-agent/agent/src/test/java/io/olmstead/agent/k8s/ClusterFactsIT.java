package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.apispec.protocol.Facts;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The facts the agent reports, read from the fabric8 mock API server in CRUD mode. One server for
 * the class (static fields), emptied before each test: objects and expectations (the 403s) of one
 * test never reach another.
 */
@EnableKubernetesMockClient(crud = true)
class ClusterFactsIT {
  static KubernetesClient client;
  static KubernetesMockServer server;

  @BeforeEach
  void emptyTheServer() {
    server.reset(); // the stored objects, the CRDs it serves and the expectations
  }

  @Test
  void countsTheNodesAndLeavesOutOpenshiftOnAPlainCluster() {
    for (int i = 0; i < 3; i++) {
      client
          .nodes()
          .resource(new NodeBuilder().withNewMetadata().withName("node-" + i).endMetadata().build())
          .create();
    }
    Facts facts = ClusterFacts.of(client, "in-guest");
    assertThat(facts.nodes()).isEqualTo(3);
    assertThat(facts.openshiftVersion()).isNull();
    assertThat(facts.mode()).isEqualTo("in-guest");
  }

  @Test
  void reportsOlmWhenItsClusterServiceVersionCrdIsInstalled() {
    assertThat(ClusterFacts.of(client, "in-guest").olm()).isFalse();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(OlmPresence.CSV_CRD)
                .endMetadata()
                .withNewSpec()
                .withGroup("operators.coreos.com")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("ClusterServiceVersion")
                .withPlural("clusterserviceversions")
                .endNames()
                .addNewVersion()
                .withName("v1alpha1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .build())
        .create();
    assertThat(ClusterFacts.of(client, "hosted").olm()).isTrue();
  }

  @Test
  void anEmptyClusterHasZeroNodes() {
    assertThat(ClusterFacts.nodes(client)).isZero();
  }

  @Test
  void readsTheDesiredVersionOfOpenshiftsClusterVersion() {
    GenericKubernetesResource version =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("config.openshift.io/v1")
            .withKind("ClusterVersion")
            .withNewMetadata()
            .withName("version")
            .endMetadata()
            .withAdditionalProperties(
                Map.of(
                    "spec",
                    Map.of("channel", "stable-4.16"),
                    "status",
                    Map.of(
                        "desired",
                        Map.of("version", "4.16.3", "image", "quay.io/openshift-release-dev/x"))))
            .build();
    client.genericKubernetesResources(ClusterFacts.CLUSTER_VERSION).resource(version).create();
    assertThat(ClusterFacts.openshiftVersion(client)).isEqualTo("4.16.3");
  }

  @Test
  void aClusterVersionWithoutADesiredVersionGivesNoOpenshiftVersion() {
    client
        .genericKubernetesResources(ClusterFacts.CLUSTER_VERSION)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("config.openshift.io/v1")
                .withKind("ClusterVersion")
                .withNewMetadata()
                .withName("version")
                .endMetadata()
                .build())
        .create();
    assertThat(ClusterFacts.openshiftVersion(client)).isNull();
  }

  @Test
  void forbiddenAnswersLeaveTheFactOut() {
    server
        .expect()
        .get()
        .withPath("/api/v1/nodes?limit=500")
        .andReturn(
            403,
            new StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage("nodes is forbidden")
                .build())
        .always();
    server
        .expect()
        .get()
        .withPath("/apis/config.openshift.io/v1/clusterversions/version")
        .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").build())
        .always();
    Facts facts = ClusterFacts.of(client, "hosted");
    assertThat(facts.nodes()).isNull();
    assertThat(facts.openshiftVersion()).isNull();
    assertThat(facts.mode()).isEqualTo("hosted");
  }

  @Test
  void aForbiddenCrdReadLeavesOlmUnknown() {
    server
        .expect()
        .get()
        .withPath("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + OlmPresence.CSV_CRD)
        .andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden").build())
        .always();
    assertThat(ClusterFacts.of(client, "hosted").olm()).isNull();
  }
}
