package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The bundle's CRDs. Sources: KubePlus "Operator Maturity Model" guidelines (expose resource
 * requests/limits and pod placement fields in the CR spec so tenants can size and place what the
 * operator creates); Kubernetes API conventions (status as a subresource) and "Extend the
 * Kubernetes API with CustomResourceDefinitions" (structural schemas for validation).
 */
final class CrdRules implements RuleFamily {

  static final String EXPOSES_RESOURCES = "consumability/crd-exposes-resources";
  static final String SCHEMA_FIELDS = "consumability/crd-exposes-placement";
  static final String STATUS = "robustness/crd-status-subresource";
  static final String VALIDATION = "robustness/crd-validation";
  static final String TOO_DEEP = "robustness/crd-schema-too-large";

  /** The KubePlus guideline's spec fields besides {@code resources}. */
  static final List<String> PLACEMENT =
      List.of("nodeSelector", "affinity", "tolerations", "securityContext", "serviceAccountName");

  @Override
  public List<String> rules() {
    return List.of(EXPOSES_RESOURCES, SCHEMA_FIELDS, STATUS, VALIDATION, TOO_DEEP);
  }

  @Override
  public void check(BundleView view, Findings out) {
    for (Crds c : Crds.of(view)) {
      for (JsonNode v : c.versions()) {
        if (!v.path("served").asBoolean(true)) {
          continue;
        }
        String at = "spec.versions[" + Crds.versionName(v) + "]";
        JsonNode spec = v.path("schema").path("openAPIV3Schema").path("properties").path("spec");
        if (!v.path("schema").path("openAPIV3Schema").isObject()
            || !spec.path("properties").isObject()
            || spec.path("properties").isEmpty()) {
          out.add(
              VALIDATION,
              Category.ROBUSTNESS,
              Severity.WARNING,
              c.object(),
              at + ".schema.openAPIV3Schema.properties.spec",
              c.object()
                  + " "
                  + at
                  + ": the spec has no declared properties, so nothing is validated");
        }
        if (!v.path("subresources").path("status").isObject()) {
          out.add(
              STATUS,
              Category.ROBUSTNESS,
              Severity.INFO,
              c.object(),
              at + ".subresources.status",
              c.object()
                  + " "
                  + at
                  + ": no status subresource (spec and status are written together)");
        }
        if (!c.createsWorkloads()) {
          continue;
        }
        Set<String> wanted = new HashSet<>(PLACEMENT);
        wanted.add("resources");
        SchemaSearch.Result r = SchemaSearch.find(spec, wanted);
        if (r.incomplete()) {
          out.add(
              TOO_DEEP,
              Category.ROBUSTNESS,
              Severity.WARNING,
              c.object(),
              at + ".schema",
              c.object()
                  + " "
                  + at
                  + ": schema deeper than "
                  + SchemaSearch.MAX_DEPTH
                  + " levels or larger "
                  + "than "
                  + SchemaSearch.MAX_NODES
                  + " nodes; checked only in part");
        }
        if (!r.found().contains("resources")) {
          out.add(
              EXPOSES_RESOURCES,
              Category.CONSUMABILITY,
              Severity.WARNING,
              c.object(),
              at + ".schema.openAPIV3Schema.properties.spec",
              c.object()
                  + " "
                  + at
                  + ": instances create workloads but the spec schema exposes no 'resources' (requests/limits)");
        }
        List<String> missing = PLACEMENT.stream().filter(f -> !r.found().contains(f)).toList();
        if (!missing.isEmpty()) {
          out.add(
              SCHEMA_FIELDS,
              Category.CONSUMABILITY,
              Severity.INFO,
              c.object(),
              at + ".schema.openAPIV3Schema.properties.spec",
              c.object()
                  + " "
                  + at
                  + ": instances create workloads but the spec schema exposes no "
                  + String.join(", ", missing));
        }
      }
    }
  }
}
