package io.olmstead.agent.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.Test;

class ResourceKindsTest {
  private final ResourceKinds kinds = new ResourceKinds();

  @Test
  void knowsTheScopeAndPluralOfBuiltInKinds() {
    ResourceDefinitionContext crb =
        kinds.context("rbac.authorization.k8s.io/v1", "ClusterRoleBinding");
    assertThat(crb.getPlural()).isEqualTo("clusterrolebindings");
    assertThat(crb.isNamespaceScoped()).isFalse();
    assertThat(crb.getGroup()).isEqualTo("rbac.authorization.k8s.io");
    ResourceDefinitionContext sa = kinds.context("v1", "ServiceAccount");
    assertThat(sa.isNamespaceScoped()).isTrue();
    assertThat(sa.getGroup()).isEmpty();
    assertThat(sa.getVersion()).isEqualTo("v1");
  }

  @Test
  void learnsCustomKindsFromTheirCrd() throws Exception {
    kinds.learn(
        new ObjectMapper()
            .readTree(
                """
        {"spec":{"group":"example.com","scope":"Cluster","names":{"kind":"Widget","plural":"widgetz"}}}"""));
    ResourceDefinitionContext widget = kinds.context("example.com/v1", "Widget");
    assertThat(widget.getPlural()).isEqualTo("widgetz");
    assertThat(widget.isNamespaceScoped()).isFalse();
  }

  @Test
  void guessesEnglishPluralsForUnknownKinds() {
    assertThat(ResourceKinds.pluralOf("Policy")).isEqualTo("policies");
    assertThat(ResourceKinds.pluralOf("Ingress")).isEqualTo("ingresses");
    assertThat(ResourceKinds.pluralOf("Gateway")).isEqualTo("gateways");
    assertThat(ResourceKinds.pluralOf("Queue")).isEqualTo("queues");
  }
}
