package io.olmstead.agent.sim;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersions;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.api.model.ServerAddressByClientCIDR;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionNames;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SIMULATION: the discovery documents an API server derives from its built-in APIs and the CRDs it
 * holds ({@code /api}, {@code /apis}, {@code /api/v1}, {@code /apis/GROUP/VERSION}), which is what
 * {@code kubectl} reads before it can map a manifest's kind to a path. Pure: the caller passes the
 * CRDs.
 */
public final class ApiDiscovery {
  /** The verbs every simulated resource takes (the CRUD mock serves them all). */
  static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

  /**
   * A built-in resource the simulated cluster serves (the kinds operators' bundles and their
   * workloads use).
   */
  private record BuiltIn(
      String groupVersion,
      String plural,
      String singular,
      String kind,
      boolean namespaced,
      List<String> shortNames,
      boolean all) {}

  private static final List<BuiltIn> BUILT_IN =
      List.of(
          new BuiltIn("v1", "namespaces", "namespace", "Namespace", false, List.of("ns"), false),
          new BuiltIn("v1", "pods", "pod", "Pod", true, List.of("po"), true),
          new BuiltIn("v1", "services", "service", "Service", true, List.of("svc"), true),
          new BuiltIn(
              "v1",
              "serviceaccounts",
              "serviceaccount",
              "ServiceAccount",
              true,
              List.of("sa"),
              false),
          new BuiltIn("v1", "configmaps", "configmap", "ConfigMap", true, List.of("cm"), false),
          new BuiltIn("v1", "secrets", "secret", "Secret", true, List.of(), false),
          new BuiltIn("v1", "events", "event", "Event", true, List.of("ev"), false),
          new BuiltIn(
              "apps/v1", "deployments", "deployment", "Deployment", true, List.of("deploy"), true),
          new BuiltIn(
              "apps/v1", "replicasets", "replicaset", "ReplicaSet", true, List.of("rs"), true),
          new BuiltIn(
              "apps/v1", "statefulsets", "statefulset", "StatefulSet", true, List.of("sts"), true),
          new BuiltIn("apps/v1", "daemonsets", "daemonset", "DaemonSet", true, List.of("ds"), true),
          new BuiltIn("batch/v1", "jobs", "job", "Job", true, List.of(), true),
          new BuiltIn(
              "policy/v1",
              "poddisruptionbudgets",
              "poddisruptionbudget",
              "PodDisruptionBudget",
              true,
              List.of("pdb"),
              false),
          new BuiltIn(
              "rbac.authorization.k8s.io/v1", "roles", "role", "Role", true, List.of(), false),
          new BuiltIn(
              "rbac.authorization.k8s.io/v1",
              "rolebindings",
              "rolebinding",
              "RoleBinding",
              true,
              List.of(),
              false),
          new BuiltIn(
              "rbac.authorization.k8s.io/v1",
              "clusterroles",
              "clusterrole",
              "ClusterRole",
              false,
              List.of(),
              false),
          new BuiltIn(
              "rbac.authorization.k8s.io/v1",
              "clusterrolebindings",
              "clusterrolebinding",
              "ClusterRoleBinding",
              false,
              List.of(),
              false),
          new BuiltIn(
              "apiextensions.k8s.io/v1",
              "customresourcedefinitions",
              "customresourcedefinition",
              "CustomResourceDefinition",
              false,
              List.of("crd", "crds"),
              false),
          new BuiltIn(
              "networking.k8s.io/v1",
              "networkpolicies",
              "networkpolicy",
              "NetworkPolicy",
              true,
              List.of("netpol"),
              false),
          new BuiltIn(
              "scheduling.k8s.io/v1",
              "priorityclasses",
              "priorityclass",
              "PriorityClass",
              false,
              List.of("pc"),
              false),
          new BuiltIn(
              "admissionregistration.k8s.io/v1",
              "validatingwebhookconfigurations",
              "validatingwebhookconfiguration",
              "ValidatingWebhookConfiguration",
              false,
              List.of(),
              false),
          new BuiltIn(
              "admissionregistration.k8s.io/v1",
              "mutatingwebhookconfigurations",
              "mutatingwebhookconfiguration",
              "MutatingWebhookConfiguration",
              false,
              List.of(),
              false),
          new BuiltIn(
              "apiregistration.k8s.io/v1",
              "apiservices",
              "apiservice",
              "APIService",
              false,
              List.of(),
              false));

  private ApiDiscovery() {}

  /** {@code /api}: the core group's one version. */
  public static APIVersions coreVersions() {
    return new APIVersionsBuilder()
        .withVersions("v1")
        .withServerAddressByClientCIDRs(new ServerAddressByClientCIDR("0.0.0.0/0", "127.0.0.1"))
        .build();
  }

  /**
   * {@code /apis}: the built-in groups, then every CRD group with its served versions, highest
   * Kubernetes version priority first (v2 before v1, v1 before v1beta1...), which is also the
   * preferred one, as an API server sorts them.
   */
  public static APIGroupList groups(List<CustomResourceDefinition> crds) {
    Map<String, List<String>> versions = new LinkedHashMap<>();
    BUILT_IN.stream()
        .map(BuiltIn::groupVersion)
        .filter(gv -> gv.contains("/"))
        .forEach(
            gv ->
                add(versions, gv.substring(0, gv.indexOf('/')), gv.substring(gv.indexOf('/') + 1)));
    Map<String, List<String>> custom = new TreeMap<>();
    for (CustomResourceDefinition crd : usable(crds)) {
      for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
        if (Boolean.TRUE.equals(v.getServed()) && !versions.containsKey(crd.getSpec().getGroup())) {
          add(custom, crd.getSpec().getGroup(), v.getName());
        }
      }
    }
    versions.putAll(custom);
    List<APIGroup> groups = new ArrayList<>();
    versions.forEach(
        (group, names) -> {
          List<GroupVersionForDiscovery> list =
              names.stream()
                  .sorted(ApiDiscovery::byPriority)
                  .map(v -> new GroupVersionForDiscovery(group + "/" + v, v))
                  .toList();
          groups.add(
              new APIGroupBuilder()
                  .withName(group)
                  .withVersions(list)
                  .withPreferredVersion(list.get(0))
                  .build());
        });
    return new APIGroupListBuilder().withGroups(groups).build();
  }

  /** {@code /apis/GROUP}: the group as {@link #groups} lists it, if served. */
  public static Optional<APIGroup> group(String name, List<CustomResourceDefinition> crds) {
    return groups(crds).getGroups().stream().filter(g -> g.getName().equals(name)).findFirst();
  }

  /**
   * {@code /api/v1} ({@code groupVersion} "v1") or {@code /apis/GROUP/VERSION}: the resources of a
   * built-in group version, or those of the CRDs serving that group and version (with their {@code
   * status} and {@code scale} subresources); empty when nothing serves it (the API server's 404).
   */
  public static Optional<APIResourceList> resources(
      String groupVersion, List<CustomResourceDefinition> crds) {
    List<APIResource> found = new ArrayList<>();
    BUILT_IN.stream()
        .filter(b -> b.groupVersion().equals(groupVersion))
        .forEach(
            b ->
                found.add(
                    resource(
                        b.plural(),
                        b.singular(),
                        b.kind(),
                        b.namespaced(),
                        b.shortNames(),
                        b.all() ? List.of("all") : List.of())));
    if (found.isEmpty()) {
      for (CustomResourceDefinition crd : usable(crds)) {
        CustomResourceDefinitionNames names = crd.getSpec().getNames();
        boolean namespaced = !"Cluster".equals(crd.getSpec().getScope());
        for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
          String gv = crd.getSpec().getGroup() + "/" + v.getName();
          if (!Boolean.TRUE.equals(v.getServed()) || !groupVersion.equals(gv)) {
            continue;
          }
          found.add(
              resource(
                  names.getPlural(),
                  names.getSingular() == null ? "" : names.getSingular(),
                  names.getKind(),
                  namespaced,
                  orEmpty(names.getShortNames()),
                  orEmpty(names.getCategories())));
          if (v.getSubresources() != null && v.getSubresources().getStatus() != null) {
            found.add(subresource(names.getPlural() + "/status", names.getKind(), namespaced));
          }
          if (v.getSubresources() != null && v.getSubresources().getScale() != null) {
            found.add(subresource(names.getPlural() + "/scale", "Scale", namespaced));
          }
        }
      }
    }
    return found.isEmpty()
        ? Optional.empty()
        : Optional.of(
            new APIResourceListBuilder()
                .withGroupVersion(groupVersion)
                .withResources(found)
                .build());
  }

  /**
   * Orders versions as Kubernetes does: GA before beta before alpha, higher numbers first, anything
   * not shaped like a Kubernetes version last, alphabetically.
   */
  static int byPriority(String a, String b) {
    Matcher ma = KUBE_VERSION.matcher(a);
    Matcher mb = KUBE_VERSION.matcher(b);
    boolean ka = ma.matches();
    boolean kb = mb.matches();
    if (!ka || !kb) {
      return ka == kb ? a.compareTo(b) : (ka ? -1 : 1);
    }
    return Comparator.<Matcher>comparingInt(
            m -> m.group(2) == null ? 0 : ("beta".equals(m.group(2)) ? 1 : 2))
        .thenComparing(m -> -Long.parseLong(m.group(1)))
        .thenComparing(m -> m.group(3) == null ? 0 : -Long.parseLong(m.group(3)))
        .compare(ma, mb);
  }

  /**
   * The CRDs with what discovery needs: a group, names (plural and kind) and versions; others are
   * skipped.
   */
  private static List<CustomResourceDefinition> usable(List<CustomResourceDefinition> crds) {
    return crds.stream()
        .filter(
            c ->
                c.getSpec() != null
                    && c.getSpec().getGroup() != null
                    && c.getSpec().getNames() != null
                    && c.getSpec().getNames().getPlural() != null
                    && c.getSpec().getNames().getKind() != null
                    && c.getSpec().getVersions() != null
                    && c.getSpec().getVersions().stream()
                        .allMatch(v -> v != null && v.getName() != null))
        .toList();
  }

  private static void add(Map<String, List<String>> versions, String group, String version) {
    List<String> list = versions.computeIfAbsent(group, g -> new ArrayList<>());
    if (!list.contains(version)) {
      list.add(version);
    }
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }

  private static APIResource resource(
      String plural,
      String singular,
      String kind,
      boolean namespaced,
      List<String> shortNames,
      List<String> categories) {
    return new APIResourceBuilder()
        .withName(plural)
        .withSingularName(singular)
        .withKind(kind)
        .withNamespaced(namespaced)
        .withVerbs(VERBS)
        .withShortNames(shortNames)
        .withCategories(categories)
        .build();
  }

  private static APIResource subresource(String name, String kind, boolean namespaced) {
    return new APIResourceBuilder()
        .withName(name)
        .withSingularName("")
        .withKind(kind)
        .withNamespaced(namespaced)
        .withVerbs("get", "patch", "update")
        .build();
  }
}
