package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The bundle's CRD objects, with what the CSV's {@code customresourcedefinitions.owned} says about
 * each.
 */
record Crds(JsonNode crd, String name, String object, boolean createsWorkloads) {

  /**
   * Kinds whose instances are pods or make pods (the list: the workloads a CR can create).
   */
  static final Set<String> WORKLOAD_KINDS =
      Set.of("Pod", "Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet", "CronJob");

  static final String COMPOSITION = "resource/composition";

  static List<Crds> of(BundleView view) {
    List<JsonNode> owned =
        view.csv() == null
            ? List.of()
            : Json.array(view.csv().path("spec").path("customresourcedefinitions"), "owned");
    List<Crds> out = new ArrayList<>();
    for (JsonNode o : view.objects()) {
      if (!"CustomResourceDefinition".equals(Json.text(o, "kind"))) {
        continue;
      }
      String name = Json.text(o.path("metadata"), "name");
      boolean workloads = false;
      for (JsonNode desc : owned) {
        if (name != null && name.equals(Json.text(desc, "name"))) {
          for (JsonNode r : Json.array(desc, "resources")) {
            workloads |= WORKLOAD_KINDS.contains(Json.text(r, "kind"));
          }
        }
      }
      String composition = Json.text(o.path("metadata").path("annotations"), COMPOSITION);
      if (composition != null) {
        for (String kind : composition.split(",")) {
          workloads |= WORKLOAD_KINDS.contains(kind.trim());
        }
      }
      out.add(new Crds(o, name, Json.describe(o), workloads));
    }
    return out;
  }

  /** The served versions of a CRD (apiextensions v1 {@code spec.versions}). */
  List<JsonNode> versions() {
    return Json.array(crd.path("spec"), "versions");
  }

  static String versionName(JsonNode version) {
    String n = Json.text(version, "name");
    return n == null ? "?" : n;
  }
}
