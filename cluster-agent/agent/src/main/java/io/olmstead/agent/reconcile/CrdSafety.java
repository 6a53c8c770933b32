package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.Subset;
import io.olmstead.agent.k8s.WorkloadStatus;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding;
import io.olmstead.olmcore.lifecycle.CrdSchemaRules;
import io.olmstead.olmcore.lifecycle.CrdUpgradeCheck;
import io.olmstead.olmcore.lifecycle.CrdUpgradeResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * olm-core's CRD safety rules fed from the cluster (existing CRDs and their custom resources), and
 * CRD readiness.
 */
final class CrdSafety {
  private final ResourceOperator resources;

  CrdSafety(ResourceOperator resources) {
    this.resources = resources;
  }

  /**
   * Why installing {@code crds} over the cluster's CRDs as they are now would be unsafe; empty when
   * safe.
   */
  Optional<String> upgradeProblem(List<JsonNode> crds) throws ResourceException {
    List<String> problems = new ArrayList<>();
    for (JsonNode crd : crds) {
      Optional<JsonNode> existing =
          resources.get(
              "apiextensions.k8s.io/v1",
              "CustomResourceDefinition",
              null,
              crd.path("metadata").path("name").asText());
      if (existing.isPresent()) {
        problem(existing.get(), crd).ifPresent(problems::add);
      }
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }

  /**
   * olm-core's CRD safety rules for replacing {@code existing} with {@code crd}, fed the existing
   * custom resources.
   */
  Optional<String> problem(JsonNode existing, JsonNode crd) throws ResourceException {
    if (Subset.contains(existing, withoutMetadata(crd))) {
      return Optional.empty(); // unchanged: nothing can be lost
    }
    CrdUpgradeResult result = CrdUpgradeCheck.check(existing, crd, customResources(existing));
    return result.message();
  }

  /** Every custom resource of the served versions of {@code existing} (a CRD the cluster has). */
  List<JsonNode> customResources(JsonNode existing) throws ResourceException {
    resources.kinds().learn(existing);
    List<JsonNode> customResources = new ArrayList<>();
    String group = existing.path("spec").path("group").asText();
    String kind = existing.path("spec").path("names").path("kind").asText();
    for (JsonNode version : existing.path("spec").path("versions")) {
      if (version.path("served").asBoolean(false)) {
        customResources.addAll(
            resources.list(group + "/" + version.path("name").asText(), kind, Map.of()));
      }
    }
    return customResources;
  }

  /**
   * olm-core's CRD schema change rules for installing {@code crds} over the cluster's CRDs, by CRD
   * name; a CRD that is new or unchanged has none.
   */
  Map<String, List<CrdSchemaFinding>> schemaFindings(List<JsonNode> crds) throws ResourceException {
    Map<String, List<CrdSchemaFinding>> out = new LinkedHashMap<>();
    for (JsonNode crd : crds) {
      String name = crd.path("metadata").path("name").asText();
      Optional<JsonNode> existing =
          resources.get("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, name);
      if (existing.isPresent() && !Subset.contains(existing.get(), withoutMetadata(crd))) {
        List<CrdSchemaFinding> found = CrdSchemaRules.compare(existing.get(), crd);
        if (!found.isEmpty()) {
          out.put(name, found);
        }
      }
    }
    return out;
  }

  /** The names of {@code crds} the API server does not serve yet (not Established). */
  List<String> notEstablished(List<JsonNode> crds) throws ResourceException {
    List<String> waiting = new ArrayList<>();
    for (JsonNode crd : crds) {
      String name = crd.path("metadata").path("name").asText();
      if (!WorkloadStatus.established(
          resources
              .get("apiextensions.k8s.io/v1", "CustomResourceDefinition", null, name)
              .orElse(null))) {
        waiting.add(name);
      }
    }
    return waiting;
  }

  private static JsonNode withoutMetadata(JsonNode crd) {
    ObjectNode copy = crd.deepCopy();
    copy.remove("metadata");
    return copy;
  }
}
