package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.olmstead.agent.k8s.ManagedLabels;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The labels informers and cleanup route by: owner labels on every object, only managed-by on
 * shared CRDs.
 */
class BundleStampTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SubscriptionToReconcile SUB =
      SubscriptionToReconcile.of("etcd", "community", "etcd", "alpha", "etcd-ns", null);

  private static JsonNode stamped(String manifest) throws Exception {
    return BundleInstaller.stamp(List.of(JSON.readTree(manifest)), SUB, "etcdoperator.v0.9.2")
        .get(0);
  }

  @Test
  void namespacedAndClusterScopedObjectsCarryTheOwnerLabelsIncludingTheOperatorNamespace()
      throws Exception {
    JsonNode role =
        stamped(
            """
        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"},"rules":[]}""");
    assertThat(role.path("metadata").path("labels").path(ManagedLabels.NAMESPACE).asText())
        .isEqualTo("etcd-ns");
    assertThat(role.path("metadata").path("labels").path(ManagedLabels.SUBSCRIPTION).asText())
        .isEqualTo("etcd");
    assertThat(role.has("rules")).isTrue();
  }

  @Test
  void sharedCrdsCarryOnlyTheManagedByLabel() throws Exception {
    JsonNode crd =
        stamped(
            """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b.c"}}""");
    assertThat(crd.path("metadata").path("labels").properties())
        .singleElement()
        .satisfies(e -> assertThat(e.getKey()).isEqualTo(ManagedLabels.MANAGED_BY));
  }
}
