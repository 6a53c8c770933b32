package io.olmstead.agent.k8s;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;

/**
 * OLM (v0) in the cluster: whether its {@code operators.coreos.com} API is installed, and which
 * package it already manages in a namespace. Every HyperShift guest runs OLM; the agent lives
 * beside it and never takes over what it manages (read only: nothing here writes).
 */
public final class OlmPresence {
  /** OLM's ClusterServiceVersion CRD: its presence means OLM is installed. */
  public static final String CSV_CRD = "clusterserviceversions.operators.coreos.com";

  public static final String API_VERSION = "operators.coreos.com/v1alpha1";
  public static final String CSV_KIND = "ClusterServiceVersion";
  public static final String SUBSCRIPTION_KIND = "Subscription";

  /** OLM's annotation on a CSV holding the bundle's properties, {@code olm.package} among them. */
  static final String PROPERTIES_ANNOTATION = "operatorframework.io/properties";

  /** OLM's label on the copies of a CSV it places in the target namespaces of an operator group. */
  static final String COPIED_FROM = "olm.copiedFrom";

  private OlmPresence() {}

  /** Whether OLM's API is installed; null when the agent cannot tell (forbidden, unreachable). */
  public static Boolean detected(KubernetesClient client) {
    try {
      return client.apiextensions().v1().customResourceDefinitions().withName(CSV_CRD).get()
          != null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Whether OLM's API is installed, read through the agent's resource operator. */
  public static boolean installed(ResourceOperator resources) throws ResourceException {
    return resources
        .get("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, CSV_CRD)
        .isPresent();
  }

  /**
   * What of OLM manages {@code packageName} in {@code namespace} ("ClusterServiceVersion x" or
   * "Subscription y"), from the CSVs and OLM Subscriptions of that namespace; empty when OLM does
   * not manage it there. Copied CSVs (an operator installed elsewhere, watching this namespace) do
   * not count: the package is managed where it runs.
   */
  public static Optional<String> managedBy(
      String packageName, List<JsonNode> csvs, List<JsonNode> subscriptions) {
    for (JsonNode csv : csvs) {
      if (csv.path("metadata").path("labels").has(COPIED_FROM)) {
        continue;
      }
      if (packageName.equals(packageOf(csv))) {
        return Optional.of(CSV_KIND + " " + csv.path("metadata").path("name").asText());
      }
    }
    for (JsonNode sub : subscriptions) {
      if (packageName.equals(sub.path("spec").path("name").asText(null))) {
        String csv = firstText(sub.path("status"), "installedCSV", "currentCSV");
        return Optional.of(
            csv != null
                ? CSV_KIND + " " + csv
                : SUBSCRIPTION_KIND + " " + sub.path("metadata").path("name").asText());
      }
    }
    return Optional.empty();
  }

  /**
   * The package a CSV belongs to: its {@code olm.package} property as OLM annotates it, else null.
   */
  static String packageOf(JsonNode csv) {
    String properties =
        csv.path("metadata").path("annotations").path(PROPERTIES_ANNOTATION).asText(null);
    if (properties == null || properties.length() > 256 * 1024) {
      return null;
    }
    try {
      JsonNode parsed = new ObjectMapper().readTree(properties);
      for (JsonNode p : parsed.path("properties")) {
        if ("olm.package".equals(p.path("type").asText())) {
          return p.path("value").path("packageName").asText(null);
        }
      }
    } catch (JsonProcessingException e) {
      return null; // a malformed annotation names no package
    }
    return null;
  }

  private static String firstText(JsonNode node, String... fields) {
    for (String f : fields) {
      String v = node.path(f).asText("");
      if (!v.isBlank()) {
        return v;
      }
    }
    return null;
  }
}
