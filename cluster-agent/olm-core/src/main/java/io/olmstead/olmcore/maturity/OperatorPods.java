package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator's own pods: the deployments of the CSV's install strategy ({@code
 * spec.install.spec.deployments}).
 */
record OperatorPods(String deployment, JsonNode deploymentSpec, JsonNode podSpec, String object) {

  static final String PREFIX = "spec.install.spec.deployments";

  static List<OperatorPods> of(BundleView view) {
    List<OperatorPods> out = new ArrayList<>();
    if (view.csv() == null) {
      return out;
    }
    for (JsonNode d :
        Json.array(view.csv().path("spec").path("install").path("spec"), "deployments")) {
      String name = Json.text(d, "name");
      JsonNode spec = d.path("spec");
      out.add(
          new OperatorPods(
              name == null ? "(unnamed)" : name,
              spec,
              spec.path("template").path("spec"),
              "Deployment " + (name == null ? "(unnamed)" : name)));
    }
    return out;
  }

  /** The containers and init containers. */
  List<JsonNode> containers(boolean withInit) {
    List<JsonNode> out = new ArrayList<>(Json.array(podSpec, "containers"));
    if (withInit) {
      out.addAll(Json.array(podSpec, "initContainers"));
    }
    return out;
  }

  /** The field path of one container, by name so it survives reordering. */
  static String containerPath(JsonNode container, String field) {
    String n = Json.text(container, "name");
    return "spec.template.spec.containers["
        + (n == null ? "?" : n)
        + "]"
        + (field.isEmpty() ? "" : "." + field);
  }
}
