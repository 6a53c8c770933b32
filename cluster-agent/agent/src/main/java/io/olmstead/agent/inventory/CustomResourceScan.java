package io.olmstead.agent.inventory;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Counts the custom resources of one CRD page by page (or from the first page's {@code
 * remainingItemCount}), keeping only the first few namespaced ones (uid, namespace, name) whose
 * pods the stacks are built from.
 */
final class CustomResourceScan {
  /** A custom resource whose pods are looked for. */
  record Instance(String uid, String namespace, String name) {}

  /** What was found for one CRD. */
  record Result(
      String crd,
      String kind,
      long count,
      boolean capped,
      List<Instance> instances,
      List<Relationship> relationships) {}

  private CustomResourceScan() {}

  /** Empty when the CRD is gone or its resources cannot be listed. */
  static Optional<Result> scan(KubernetesClient client, String crdName, int keep) {
    CustomResourceDefinition crd;
    try {
      crd = client.apiextensions().v1().customResourceDefinitions().withName(crdName).get();
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
    if (crd == null || crd.getSpec() == null || crd.getSpec().getNames() == null) {
      return Optional.empty();
    }
    String version =
        crd.getSpec().getVersions().stream()
            .filter(v -> Boolean.TRUE.equals(v.getStorage()))
            .map(CustomResourceDefinitionVersion::getName)
            .findFirst()
            .orElse(
                crd.getSpec().getVersions().isEmpty()
                    ? null
                    : crd.getSpec().getVersions().get(0).getName());
    if (version == null) {
      return Optional.empty();
    }
    boolean namespaced = "Namespaced".equals(crd.getSpec().getScope());
    ResourceDefinitionContext context =
        new ResourceDefinitionContext.Builder()
            .withGroup(crd.getSpec().getGroup())
            .withVersion(version)
            .withPlural(crd.getSpec().getNames().getPlural())
            .withKind(crd.getSpec().getNames().getKind())
            .withNamespaced(namespaced)
            .build();
    List<Instance> instances = new ArrayList<>();
    Pager.Result counted;
    try {
      var op = client.genericKubernetesResources(context);
      counted =
          Pager.each(
              o -> namespaced ? op.inAnyNamespace().list(o) : op.list(o),
              InventoryBounds.PAGE,
              InventoryBounds.COUNT_CAP,
              true,
              (GenericKubernetesResource r) -> {
                if (namespaced
                    && instances.size() < keep
                    && r.getMetadata() != null
                    && r.getMetadata().getUid() != null) {
                  instances.add(
                      new Instance(
                          r.getMetadata().getUid(),
                          r.getMetadata().getNamespace(),
                          r.getMetadata().getName()));
                }
              });
    } catch (KubernetesClientException e) {
      return Optional.empty();
    }
    return Optional.of(
        new Result(
            crdName,
            crd.getSpec().getNames().getKind(),
            counted.total(),
            counted.capped(),
            instances,
            Relationship.of(crd.getMetadata().getAnnotations())));
  }
}
