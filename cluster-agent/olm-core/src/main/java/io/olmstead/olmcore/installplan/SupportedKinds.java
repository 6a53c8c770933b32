package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.fbc.Gvk;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The kinds of a bundle's manifests OLM installs ({@code catalog/step.go} and {@code
 * supportedresources.go}), and which of a plan's APIs must be looked up in discovery before
 * anything is applied: OLM fails the install plan on an unsupported kind ({@code
 * UnsupportedResource}) and on an API the cluster does not serve. Pure.
 */
public final class SupportedKinds {
  /** The step status and install-plan error OLM reports for a kind it does not install. */
  public static final String UNSUPPORTED_RESOURCE = "UnsupportedResource";

  private static final String INVALID_PLAN = "the InstallPlan contains invalid data";

  /** Kinds step.go installs itself, served by every Kubernetes (never looked up in discovery). */
  private static final Set<String> CORE =
      Set.of(
          "CustomResourceDefinition",
          "ClusterServiceVersion",
          "Secret",
          "ConfigMap",
          "Service",
          "ServiceAccount",
          "Role",
          "RoleBinding",
          "ClusterRole",
          "ClusterRoleBinding");

  /** OLM's {@code supportedKinds}: installed when the cluster serves their API. */
  private static final Set<String> OPTIONAL =
      Set.of(
          "PrometheusRule",
          "ServiceMonitor",
          "PodDisruptionBudget",
          "PriorityClass",
          "VerticalPodAutoscaler",
          "ConsoleYAMLSample",
          "ConsoleQuickStart",
          "ConsoleCLIDownload",
          "ConsoleLink",
          "ConsolePlugin",
          "NetworkPolicy");

  /**
   * What the plan adds from the CSV itself (its deployments, the webhook configurations and API
   * services of its webhook and API service definitions): built into every Kubernetes, never looked
   * up.
   */
  private static final Set<String> PLANNED =
      Set.of(
          "Deployment",
          "ValidatingWebhookConfiguration",
          "MutatingWebhookConfiguration",
          "APIService");

  private SupportedKinds() {}

  /** Whether OLM installs a bundle manifest of {@code kind}. */
  public static boolean supported(String kind) {
    return CORE.contains(kind) || OPTIONAL.contains(kind);
  }

  /**
   * OLM's refusal of the first manifest of an unsupported kind, naming it; empty when every one is
   * supported.
   */
  public static Optional<String> unsupported(List<JsonNode> manifests) {
    return manifests.stream()
        .filter(m -> m != null && !supported(m.path("kind").asText()))
        .findFirst()
        .map(
            m ->
                INVALID_PLAN
                    + ": "
                    + UNSUPPORTED_RESOURCE
                    + " "
                    + m.path("apiVersion").asText()
                    + " "
                    + m.path("kind").asText()
                    + " "
                    + m.path("metadata").path("name").asText());
  }

  /**
   * The APIs of a plan's objects that discovery must serve before anything is applied: every kind
   * but the core ones and those the plan's own CRDs define (applied, and Established, before the
   * rest).
   */
  public static List<Gvk> toLookUp(List<JsonNode> objects) {
    Set<Gvk> own = new LinkedHashSet<>();
    for (JsonNode o : objects) {
      if ("CustomResourceDefinition".equals(o.path("kind").asText())) {
        JsonNode spec = o.path("spec");
        spec.path("versions")
            .forEach(
                v ->
                    own.add(
                        new Gvk(
                            spec.path("group").asText(),
                            v.path("name").asText(),
                            spec.path("names").path("kind").asText())));
      }
    }
    Set<Gvk> out = new LinkedHashSet<>();
    for (JsonNode o : objects) {
      String kind = o.path("kind").asText();
      Gvk gvk = gvk(o.path("apiVersion").asText(), kind);
      if (!CORE.contains(kind) && !PLANNED.contains(kind) && !own.contains(gvk)) {
        out.add(gvk);
      }
    }
    return List.copyOf(out);
  }

  /** OLM's words for an API discovery does not list ({@code GroupVersionKindNotFoundError}). */
  public static String notServed(Gvk api) {
    return "Unable to find GVK in discovery: "
        + api.group()
        + " "
        + api.version()
        + " "
        + api.kind();
  }

  private static Gvk gvk(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    return slash < 0
        ? new Gvk("", apiVersion, kind)
        : new Gvk(apiVersion.substring(0, slash), apiVersion.substring(slash + 1), kind);
  }
}
