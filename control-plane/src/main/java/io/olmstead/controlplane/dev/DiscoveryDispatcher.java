package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.ServerAddressByClientCIDR;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * SIMULATION: the fabric8 CRUD mock with the discovery documents {@code kubectl} reads before any request
 * ({@code /version}, {@code /api}, {@code /apis}, the resource lists of core v1, apiextensions and of every CRD
 * {@link #register registered}); the mock alone answers none of them. The OpenAPI documents are 404, so kubectl
 * create/apply need {@code --validate=false}; watches are WebSocket only (the fabric8 mock), so {@code kubectl get -w}
 * does not work and {@code kubectl delete} waits by listing again. Everything else is the CRUD mock.
 */
final class DiscoveryDispatcher extends KubernetesCrudDispatcher {
  private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
      "update", "watch");
  private final KubernetesSerialization json = new KubernetesSerialization();
  private final List<CustomResourceDefinition> crds = new CopyOnWriteArrayList<>();

  /** Makes the CRD's group and versions discoverable (call once it is created in the mock). */
  void register(CustomResourceDefinition crd) {
    crds.add(crd);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    if ("GET".equals(request.getMethod()) && request.getPath() != null) {
      String path = request.getPath().contains("?") ? request.getPath().substring(0, request.getPath().indexOf('?'))
          : request.getPath();
      if (path.startsWith("/openapi/")) {
        // served by no mock: a 404 tells kubectl so (rather than an empty list it cannot parse as a schema)
        return new MockResponse().setResponseCode(404).addHeader("Content-Type: application/json").setBody(
            json.asJson(Map.of("kind", "Status", "apiVersion", "v1", "status", "Failure", "reason", "NotFound",
                "code", 404, "message", "the simulated management cluster serves no OpenAPI document")));
      }
      String body = discovery(path);
      if (body != null) {
        return new MockResponse().setResponseCode(200).addHeader("Content-Type: application/json").setBody(body);
      }
    }
    return super.dispatch(request);
  }

  private String discovery(String path) {
    switch (path) {
      case "/version":
        return json.asJson(Map.of("major", "1", "minor", "31", "gitVersion", "v1.31.0-simulated",
            "platform", "linux/amd64"));
      case "/api":
        return json.asJson(new APIVersionsBuilder().withVersions("v1").withServerAddressByClientCIDRs(
            new ServerAddressByClientCIDR("0.0.0.0/0", "127.0.0.1")).build());
      case "/apis":
        return json.asJson(groups());
      case "/api/v1":
        return json.asJson(resources("v1", List.of(resource("namespaces", "namespace", "Namespace", false, "ns"),
            resource("secrets", "secret", "Secret", true), resource("configmaps", "configmap", "ConfigMap", true,
                "cm"))));
      case "/apis/apiextensions.k8s.io/v1":
        return json.asJson(resources("apiextensions.k8s.io/v1", List.of(resource("customresourcedefinitions",
            "customresourcedefinition", "CustomResourceDefinition", false, "crd", "crds"))));
      default:
        return crdResources(path);
    }
  }

  private Object groups() {
    Map<String, List<String>> versions = new TreeMap<>();
    versions.put("apiextensions.k8s.io", new ArrayList<>(List.of("v1")));
    for (CustomResourceDefinition crd : crds) {
      for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
        if (Boolean.TRUE.equals(v.getServed())) {
          List<String> list = versions.computeIfAbsent(crd.getSpec().getGroup(), g -> new ArrayList<>());
          if (!list.contains(v.getName())) {
            list.add(v.getName());
          }
        }
      }
    }
    APIGroupListBuilder groups = new APIGroupListBuilder();
    versions.forEach((group, names) -> {
      List<GroupVersionForDiscovery> list = names.stream()
          .map(v -> new GroupVersionForDiscovery(group + "/" + v, v)).toList();
      groups.addToGroups(new APIGroupBuilder().withName(group).withVersions(list)
          .withPreferredVersion(list.get(0)).build());
    });
    return groups.build();
  }

  private String crdResources(String path) {
    List<APIResource> found = new ArrayList<>();
    String groupVersion = null;
    for (CustomResourceDefinition crd : crds) {
      for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
        String gv = crd.getSpec().getGroup() + "/" + v.getName();
        if (path.equals("/apis/" + gv) && Boolean.TRUE.equals(v.getServed())) {
          groupVersion = gv;
          var names = crd.getSpec().getNames();
          boolean namespaced = "Namespaced".equals(crd.getSpec().getScope());
          found.add(resource(names.getPlural(), names.getSingular(), names.getKind(), namespaced,
              names.getShortNames() == null ? new String[0] : names.getShortNames().toArray(String[]::new)));
          if (v.getSubresources() != null && v.getSubresources().getStatus() != null) {
            found.add(new APIResourceBuilder().withName(names.getPlural() + "/status").withKind(names.getKind())
                .withNamespaced(namespaced).withSingularName("").withVerbs("get", "patch", "update").build());
          }
        }
      }
    }
    return groupVersion == null ? null : json.asJson(resources(groupVersion, found));
  }

  private static Object resources(String groupVersion, List<APIResource> list) {
    return new APIResourceListBuilder().withGroupVersion(groupVersion).withResources(list).build();
  }

  private static APIResource resource(String plural, String singular, String kind, boolean namespaced,
      String... shortNames) {
    return new APIResourceBuilder().withName(plural).withSingularName(singular).withKind(kind)
        .withNamespaced(namespaced).withVerbs(VERBS).withShortNames(shortNames).build();
  }
}
