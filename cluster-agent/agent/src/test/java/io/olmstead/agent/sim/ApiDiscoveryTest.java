package io.olmstead.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApiDiscoveryTest {
  private static final CustomResourceDefinition DEMO =
      crd(
          "demo.olmstead.io",
          "Demo",
          "demos",
          "Namespaced",
          List.of("dm"),
          List.of(
              version("v1alpha1", true, true, false),
              version("v1", true, false, true),
              version("v0", false, false, false)));
  private static final CustomResourceDefinition BACKUP =
      crd(
          "demo.olmstead.io",
          "DemoBackup",
          "demobackups",
          "Cluster",
          null,
          List.of(version("v1", true, true, false)));
  private static final CustomResourceDefinition OTHER =
      crd(
          "a.example.com",
          "Widget",
          "widgets",
          "Namespaced",
          null,
          List.of(version("v1beta1", true, true, false)));

  @Test
  void groupsListTheBuiltInGroupsThenEveryCrdGroupWithItsServedVersionsHighestPriorityPreferred() {
    List<APIGroup> groups = ApiDiscovery.groups(List.of(DEMO, BACKUP, OTHER)).getGroups();
    List<String> names = groups.stream().map(APIGroup::getName).toList();
    assertThat(names)
        .startsWith("apps", "batch", "policy", "rbac.authorization.k8s.io", "apiextensions.k8s.io")
        .endsWith("a.example.com", "demo.olmstead.io")
        .doesNotHaveDuplicates();
    APIGroup demo =
        groups.stream()
            .filter(g -> g.getName().equals("demo.olmstead.io"))
            .findFirst()
            .orElseThrow();
    assertThat(demo.getVersions())
        .extracting(GroupVersionForDiscovery::getGroupVersion)
        .containsExactly("demo.olmstead.io/v1", "demo.olmstead.io/v1alpha1");
    assertThat(demo.getPreferredVersion().getVersion()).isEqualTo("v1");
    assertThat(ApiDiscovery.group("demo.olmstead.io", List.of(DEMO))).isPresent();
    assertThat(ApiDiscovery.group("demo.olmstead.io", List.of())).isEmpty();
  }

  @Test
  void aGroupVersionListsTheResourcesOfEveryCrdServingItWithScopeNamesAndSubresources() {
    List<APIResource> resources =
        ApiDiscovery.resources("demo.olmstead.io/v1", List.of(DEMO, BACKUP, OTHER))
            .orElseThrow()
            .getResources();
    assertThat(resources)
        .extracting(APIResource::getName)
        .containsExactly("demos", "demobackups", "demobackups/status");
    APIResource demos = resources.get(0);
    assertThat(demos.getKind()).isEqualTo("Demo");
    assertThat(demos.getSingularName()).isEqualTo("demo");
    assertThat(demos.getNamespaced()).isTrue();
    assertThat(demos.getShortNames()).containsExactly("dm");
    assertThat(demos.getVerbs()).contains("create", "get", "list", "delete", "watch");
    assertThat(resources.get(1).getNamespaced()).as("scope Cluster").isFalse();
    assertThat(
            ApiDiscovery.resources("demo.olmstead.io/v1alpha1", List.of(DEMO))
                .orElseThrow()
                .getResources())
        .extracting(APIResource::getName)
        .containsExactly("demos", "demos/status", "demos/scale");
  }

  @Test
  void nothingServesAVersionThatIsNotServedOrAGroupNoCrdHas() {
    assertThat(ApiDiscovery.resources("demo.olmstead.io/v0", List.of(DEMO))).isEmpty();
    assertThat(ApiDiscovery.resources("demo.olmstead.io/v1", List.of())).isEmpty();
    assertThat(ApiDiscovery.resources("metrics.k8s.io/v1beta1", List.of(DEMO))).isEmpty();
    assertThat(ApiDiscovery.groups(List.of(DEMO)).getGroups())
        .extracting(APIGroup::getName)
        .doesNotContain("metrics.k8s.io");
  }

  @Test
  void theCoreAndBuiltInGroupsServeTheKindsOperatorsAndTheirWorkloadsUse() {
    assertThat(ApiDiscovery.coreVersions().getVersions()).containsExactly("v1");
    assertThat(ApiDiscovery.resources("v1", List.of()).orElseThrow().getResources())
        .extracting(APIResource::getName)
        .contains("namespaces", "pods", "secrets", "configmaps", "services", "serviceaccounts");
    assertThat(ApiDiscovery.resources("apps/v1", List.of()).orElseThrow().getResources())
        .filteredOn(r -> r.getName().equals("deployments"))
        .singleElement()
        .satisfies(r -> assertThat(r.getCategories()).containsExactly("all"));
    assertThat(
            ApiDiscovery.resources("apiextensions.k8s.io/v1", List.of())
                .orElseThrow()
                .getResources()
                .get(0)
                .getShortNames())
        .contains("crd");
  }

  @Test
  void theWebhookConfigurationsAndApiServicesAnInstallWritesAreListedSoKubectlCanGetThem() {
    assertThat(ApiDiscovery.groups(List.of()).getGroups())
        .extracting(APIGroup::getName)
        .contains("admissionregistration.k8s.io", "apiregistration.k8s.io");
    assertThat(
            ApiDiscovery.resources("admissionregistration.k8s.io/v1", List.of())
                .orElseThrow()
                .getResources())
        .extracting(APIResource::getName, APIResource::getKind, APIResource::getNamespaced)
        .containsExactly(
            tuple("validatingwebhookconfigurations", "ValidatingWebhookConfiguration", false),
            tuple("mutatingwebhookconfigurations", "MutatingWebhookConfiguration", false));
    assertThat(
            ApiDiscovery.resources("apiregistration.k8s.io/v1", List.of())
                .orElseThrow()
                .getResources())
        .extracting(APIResource::getName, APIResource::getNamespaced)
        .containsExactly(tuple("apiservices", false));
  }

  @Test
  void crdsMissingNamesGroupOrVersionNamesAreSkippedRatherThanBreakingDiscovery() {
    CustomResourceDefinition noPlural =
        crd(
            "x.example.com",
            "X",
            null,
            "Namespaced",
            null,
            List.of(version("v1", true, true, false)));
    CustomResourceDefinition noSpec =
        new CustomResourceDefinitionBuilder().withNewMetadata().withName("y").endMetadata().build();
    CustomResourceDefinition unnamedVersion =
        crd(
            "z.example.com",
            "Z",
            "zs",
            "Namespaced",
            null,
            List.of(new CustomResourceDefinitionVersion()));
    List<CustomResourceDefinition> broken = List.of(noPlural, noSpec, unnamedVersion, DEMO);
    assertThat(ApiDiscovery.groups(broken).getGroups())
        .extracting(APIGroup::getName)
        .contains("demo.olmstead.io")
        .doesNotContain("x.example.com", "z.example.com");
    assertThat(ApiDiscovery.resources("x.example.com/v1", broken)).isEmpty();
  }

  @Test
  void versionsSortAsKubernetesSortsThem() {
    List<String> versions =
        new ArrayList<>(
            List.of(
                "v1alpha1", "foo", "v2", "v1beta1", "v1", "v1beta2", "v11alpha2", "bar", "v10"));
    versions.sort(ApiDiscovery::byPriority);
    assertThat(versions)
        .containsExactly(
            "v10", "v2", "v1", "v1beta2", "v1beta1", "v11alpha2", "v1alpha1", "bar", "foo");
  }

  private static CustomResourceDefinitionVersion version(
      String name, boolean served, boolean status, boolean storage) {
    CustomResourceDefinitionVersionBuilder v =
        new CustomResourceDefinitionVersionBuilder()
            .withName(name)
            .withServed(served)
            .withStorage(storage);
    if (status) {
      v.withNewSubresources().withNewStatus().endStatus().endSubresources();
    }
    if (status && "v1alpha1".equals(name)) {
      v.editSubresources()
          .withNewScale()
          .withSpecReplicasPath(".spec.replicas")
          .withStatusReplicasPath(".status.replicas")
          .endScale()
          .endSubresources();
    }
    return v.build();
  }

  private static CustomResourceDefinition crd(
      String group,
      String kind,
      String plural,
      String scope,
      List<String> shortNames,
      List<CustomResourceDefinitionVersion> versions) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(plural + "." + group)
        .endMetadata()
        .withNewSpec()
        .withGroup(group)
        .withScope(scope)
        .withNewNames()
        .withKind(kind)
        .withPlural(plural)
        .withSingular(kind.toLowerCase(java.util.Locale.ROOT))
        .withShortNames(shortNames)
        .endNames()
        .withVersions(versions)
        .endSpec()
        .build();
  }
}
