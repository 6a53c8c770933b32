package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceKinds;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which namespace an informer event on a managed object queues. */
class ManagedInformersTest {

  private static GenericKubernetesResource object(
      String namespace, Map<String, String> labels, Map<String, String> annotations) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setMetadata(
        new ObjectMetaBuilder()
            .withName("x")
            .withNamespace(namespace)
            .withLabels(labels)
            .withAnnotations(annotations)
            .build());
    return r;
  }

  private static GenericKubernetesResource conditionRecording(String namespace, String crds) {
    return object(
        namespace, ManagedLabels.of("sub", "b.v1", namespace), Map.of(ObservedBundle.CRDS, crds));
  }

  @Test
  void aClusterScopedObjectQueuesTheOperatorNamespaceInItsLabels() {
    GenericKubernetesResource clusterRole =
        object(null, ManagedLabels.of("etcd", "etcdoperator.v0.9.2", "etcd-ns"), null);
    assertThat(ManagedInformers.ownerNamespace(clusterRole)).contains("etcd-ns");
  }

  @Test
  void anObjectWithoutTheNamespaceLabelQueuesNothing() {
    GenericKubernetesResource sharedCrd =
        object(null, Map.of(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE), null);
    assertThat(ManagedInformers.ownerNamespace(sharedCrd)).isEmpty();
    assertThat(ManagedInformers.ownerNamespace(object("a", null, null))).isEmpty();
  }

  @Test
  void aCrdEventQueuesEveryNamespaceWhoseBundlesRecordedItAndNoOther() {
    List<GenericKubernetesResource> conditions =
        List.of(
            conditionRecording(
                "team-a",
                "etcdclusters.etcd.database.coreos.com,etcdbackups.etcd.database.coreos.com"),
            conditionRecording("team-b", "etcdbackups.etcd.database.coreos.com"),
            conditionRecording("team-c", "rabbitmqclusters.rabbitmq.com"),
            object("team-d", Map.of(), null));
    assertThat(ManagedInformers.namespacesUsing("etcdbackups.etcd.database.coreos.com", conditions))
        .containsExactly("team-a", "team-b");
    assertThat(ManagedInformers.namespacesUsing("etcd", conditions)).isEmpty();
  }

  @Test
  void theOperatorConditionCrdConcernsEveryNamespaceWithAnOperatorCondition() {
    List<GenericKubernetesResource> conditions =
        List.of(conditionRecording("team-a", ""), conditionRecording("team-b", "x"));
    assertThat(ManagedInformers.namespacesUsing(OperatorConditions.CRD_NAME, conditions))
        .containsExactly("team-a", "team-b");
  }

  @Test
  void everyBuiltInKindThePlanCreatesIsWatchedButOperatorConditionsWaitForTheirCrd() {
    assertThat(ManagedInformers.OWNED)
        .extracting(ResourceKinds.Kind::kind)
        .containsExactlyInAnyOrder(
            "Deployment",
            "ServiceAccount",
            "Role",
            "RoleBinding",
            "ClusterRole",
            "ClusterRoleBinding",
            "Service",
            "ConfigMap",
            "Secret");
  }
}
