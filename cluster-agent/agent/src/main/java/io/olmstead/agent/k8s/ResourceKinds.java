package io.olmstead.agent.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps apiVersion + kind to the REST path pieces (plural, scope) without API discovery: a table of
 * the kinds bundles ship, plus whatever CRDs the agent has seen. Discovery is avoided so the agent
 * works the same against the mock API server.
 */
public final class ResourceKinds {
  /** A kind the agent lists when it must find every object of a subscription. */
  public record Kind(String apiVersion, String kind) {}

  /** Kinds every cleanup sweeps, whatever the bundle held. */
  public static final List<Kind> COMMON =
      List.of(
          new Kind("apps/v1", "Deployment"),
          new Kind("v1", "ServiceAccount"),
          new Kind("rbac.authorization.k8s.io/v1", "Role"),
          new Kind("rbac.authorization.k8s.io/v1", "RoleBinding"),
          new Kind("rbac.authorization.k8s.io/v1", "ClusterRole"),
          new Kind("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
          new Kind("v1", "Service"),
          new Kind("v1", "ConfigMap"),
          new Kind("v1", "Secret"),
          new Kind("operators.coreos.com/v2", "OperatorCondition"));

  private record Info(String plural, boolean namespaced) {}

  private static final Map<String, Info> BUILT_IN =
      Map.ofEntries(
          Map.entry("Namespace", new Info("namespaces", false)),
          Map.entry("CustomResourceDefinition", new Info("customresourcedefinitions", false)),
          Map.entry("ClusterRole", new Info("clusterroles", false)),
          Map.entry("ClusterRoleBinding", new Info("clusterrolebindings", false)),
          Map.entry(
              "ValidatingWebhookConfiguration", new Info("validatingwebhookconfigurations", false)),
          Map.entry(
              "MutatingWebhookConfiguration", new Info("mutatingwebhookconfigurations", false)),
          Map.entry("PriorityClass", new Info("priorityclasses", false)),
          Map.entry("StorageClass", new Info("storageclasses", false)),
          Map.entry("APIService", new Info("apiservices", false)),
          Map.entry("ConsoleYAMLSample", new Info("consoleyamlsamples", false)),
          Map.entry("ConsoleQuickStart", new Info("consolequickstarts", false)),
          Map.entry("ConsoleCLIDownload", new Info("consoleclidownloads", false)),
          Map.entry("ConsoleLink", new Info("consolelinks", false)),
          Map.entry("Deployment", new Info("deployments", true)),
          Map.entry("ServiceAccount", new Info("serviceaccounts", true)),
          Map.entry("Role", new Info("roles", true)),
          Map.entry("RoleBinding", new Info("rolebindings", true)),
          Map.entry("Service", new Info("services", true)),
          Map.entry("ConfigMap", new Info("configmaps", true)),
          Map.entry("Secret", new Info("secrets", true)),
          Map.entry("PodDisruptionBudget", new Info("poddisruptionbudgets", true)),
          Map.entry("NetworkPolicy", new Info("networkpolicies", true)),
          Map.entry("ServiceMonitor", new Info("servicemonitors", true)),
          Map.entry("PrometheusRule", new Info("prometheusrules", true)),
          Map.entry("PodMonitor", new Info("podmonitors", true)),
          Map.entry("VerticalPodAutoscaler", new Info("verticalpodautoscalers", true)),
          Map.entry("OperatorCondition", new Info("operatorconditions", true)),
          Map.entry("ClusterServiceVersion", new Info("clusterserviceversions", true)));

  private final Map<String, Info> learned = new ConcurrentHashMap<>();

  /**
   * Remembers the plural and scope a CRD manifest declares, so its custom resources can be
   * addressed.
   */
  public void learn(JsonNode crd) {
    JsonNode spec = crd.path("spec");
    String group = spec.path("group").asText("");
    String kind = spec.path("names").path("kind").asText("");
    String plural = spec.path("names").path("plural").asText("");
    if (!kind.isEmpty() && !plural.isEmpty()) {
      learned.put(
          group + "/" + kind,
          new Info(plural, !"Cluster".equals(spec.path("scope").asText("Namespaced"))));
    }
  }

  /** True when objects of this kind live in a namespace. */
  public boolean namespaced(String apiVersion, String kind) {
    return info(apiVersion, kind).namespaced();
  }

  /** The fabric8 context to address objects of {@code apiVersion}/{@code kind}. */
  public ResourceDefinitionContext context(String apiVersion, String kind) {
    Info info = info(apiVersion, kind);
    return new ResourceDefinitionContext.Builder()
        .withGroup(group(apiVersion))
        .withVersion(version(apiVersion))
        .withKind(kind)
        .withPlural(info.plural())
        .withNamespaced(info.namespaced())
        .build();
  }

  private Info info(String apiVersion, String kind) {
    Info custom = learned.get(group(apiVersion) + "/" + kind);
    if (custom != null) {
      return custom;
    }
    Info known = BUILT_IN.get(kind);
    // Unknown kinds: the usual English plural and namespaced, which is what most bundle extras are.
    return known != null ? known : new Info(pluralOf(kind), true);
  }

  static String pluralOf(String kind) {
    String lower = kind.toLowerCase(Locale.ROOT);
    if (lower.endsWith("s")
        || lower.endsWith("x")
        || lower.endsWith("ch")
        || lower.endsWith("sh")) {
      return lower + "es";
    }
    if (lower.endsWith("y")
        && lower.length() > 1
        && "aeiou".indexOf(lower.charAt(lower.length() - 2)) < 0) {
      return lower.substring(0, lower.length() - 1) + "ies";
    }
    return lower + "s";
  }

  static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  static String version(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
  }
}
