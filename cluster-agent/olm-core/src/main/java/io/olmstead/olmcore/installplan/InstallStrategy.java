package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Validation of the CSV {@code spec.install} deployment strategy and construction of its
 * Deployments.
 */
final class InstallStrategy {
  private InstallStrategy() {}

  /**
   * A message when the strategy cannot be installed, empty when it is a well-formed deployment
   * strategy.
   */
  static Optional<String> validate(JsonNode csv) {
    JsonNode install = csv.path("spec").path("install");
    if (!install.isObject()) {
      return Optional.of("install strategy invalid: spec.install is missing");
    }
    String name = install.path("strategy").asText("");
    if (!"deployment".equals(name)) {
      return Optional.of("install strategy invalid: unsupported strategy \"" + name + "\"");
    }
    JsonNode spec = install.path("spec");
    if (!spec.isObject()) {
      return Optional.of("install strategy invalid: spec.install.spec is missing");
    }
    JsonNode deployments = spec.path("deployments");
    if (!deployments.isArray()) {
      return Optional.of("install strategy invalid: spec.install.spec.deployments is not a list");
    }
    int i = 0;
    for (JsonNode d : deployments) {
      if (d.path("name").asText("").isEmpty()) {
        return Optional.of("install strategy invalid: deployments[" + i + "] has no name");
      }
      if (!d.path("spec").isObject()
          || !d.path("spec").path("template").path("spec").path("containers").isArray()) {
        return Optional.of(
            "install strategy invalid: deployment "
                + d.path("name").asText()
                + " has no pod template with containers");
      }
      i++;
    }
    for (String field : new String[] {"permissions", "clusterPermissions"}) {
      JsonNode permissions = spec.path(field);
      if (permissions.isMissingNode() || permissions.isNull()) {
        continue;
      }
      if (!permissions.isArray()) {
        return Optional.of(
            "install strategy invalid: spec.install.spec." + field + " is not a list");
      }
      for (JsonNode p : permissions) {
        if (p.path("serviceAccountName").asText("").isEmpty()) {
          return Optional.of(
              "install strategy invalid: an entry of " + field + " has no serviceAccountName");
        }
      }
    }
    return Optional.empty();
  }

  static ObjectNode deployment(JsonNode entry, String namespace, ObjectNode ownerLabels) {
    ObjectNode d =
        JsonNodeFactory.instance
            .objectNode()
            .put("apiVersion", "apps/v1")
            .put("kind", "Deployment");
    ObjectNode meta =
        d.putObject("metadata")
            .put("name", entry.path("name").asText())
            .put("namespace", namespace);
    ObjectNode labels = meta.putObject("labels");
    if (entry.path("label").isObject()) {
      entry
          .path("label")
          .fields()
          .forEachRemaining(e -> labels.set(e.getKey(), e.getValue().deepCopy()));
    }
    labels.setAll(ownerLabels.deepCopy());
    d.set("spec", entry.path("spec").deepCopy());
    return d;
  }
}
