package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Applies a Subscription {@code config} to an operator Deployment the way OLM's overrides/inject
 * package does, plus the values OLM always injects ({@code OPERATOR_CONDITION_NAME}, operator-group
 * annotations).
 */
final class DeploymentOverrides {
  static final String TARGET_NAMESPACES = "olm.targetNamespaces";
  static final String OPERATOR_NAMESPACE = "olm.operatorNamespace";
  static final String OPERATOR_GROUP = "olm.operatorGroup";
  static final String OPERATOR_CONDITION_NAME = "OPERATOR_CONDITION_NAME";

  private DeploymentOverrides() {}

  static void apply(ObjectNode deployment, SubscriptionConfig config) {
    ObjectNode template = object(object(deployment, "spec"), "template");
    ObjectNode podSpec = object(template, "spec");
    ArrayNode containers = array(podSpec, "containers");
    for (JsonNode c : containers) {
      if (!(c instanceof ObjectNode container)) {
        continue;
      }
      if (!config.env().isEmpty()) {
        container.set("env", mergeEnv(container.get("env"), config.env()));
      }
      if (!config.envFrom().isEmpty()) {
        ArrayNode envFrom = array(container, "envFrom");
        // Appended unless an identical source is already there.
        config.envFrom().stream()
            .filter(e -> !contains(envFrom, e))
            .forEach(e -> envFrom.add(e.deepCopy()));
      }
      if (!config.volumeMounts().isEmpty()) {
        replaceOrAppendByName(array(container, "volumeMounts"), config.volumeMounts());
      }
      if (config.resources() != null) {
        container.set("resources", config.resources().deepCopy());
      }
    }
    if (!config.volumes().isEmpty()) {
      replaceOrAppendByName(array(podSpec, "volumes"), config.volumes());
    }
    if (!config.tolerations().isEmpty()) {
      ArrayNode tolerations = array(podSpec, "tolerations");
      config.tolerations().stream()
          .filter(t -> !contains(tolerations, t))
          .forEach(t -> tolerations.add(t.deepCopy()));
    }
    if (config.nodeSelector() != null) {
      ObjectNode selector = podSpec.putObject("nodeSelector");
      config.nodeSelector().forEach(selector::put);
    }
    if (config.affinity() != null) {
      overrideAffinity(podSpec, config.affinity());
    }
    if (!config.annotations().isEmpty()) {
      // OLM never overwrites annotations the deployment already defines.
      addMissing(object(deployment, "metadata"), config.annotations());
      addMissing(object(template, "metadata"), config.annotations());
    }
  }

  /** The values OLM sets on every operator deployment regardless of the subscription. */
  static void injectOlmValues(
      ObjectNode deployment,
      String csvName,
      String operatorNamespace,
      String operatorGroup,
      List<String> targetNamespaces) {
    ObjectNode template = object(object(deployment, "spec"), "template");
    ObjectNode annotations = object(object(template, "metadata"), "annotations");
    annotations.put(TARGET_NAMESPACES, String.join(",", targetNamespaces));
    annotations.put(OPERATOR_NAMESPACE, operatorNamespace);
    annotations.put(OPERATOR_GROUP, operatorGroup);
    ObjectNode env =
        deployment.objectNode().put("name", OPERATOR_CONDITION_NAME).put("value", csvName);
    for (JsonNode c : array(object(template, "spec"), "containers")) {
      if (c instanceof ObjectNode container) {
        container.set("env", mergeEnv(container.get("env"), List.of(env)));
      }
    }
  }

  /**
   * Existing variables keep their position (value replaced when overridden); new ones are appended
   * in order.
   */
  private static ArrayNode mergeEnv(JsonNode existing, List<JsonNode> added) {
    ArrayNode merged = JsonNodeFactory.instance.arrayNode();
    if (existing != null && existing.isArray()) {
      for (JsonNode e : existing) {
        String name = e.path("name").asText();
        JsonNode override =
            added.stream()
                .filter(a -> a.path("name").asText().equals(name))
                .reduce((a, b) -> b)
                .orElse(null);
        merged.add(override != null ? override.deepCopy() : e);
      }
    }
    for (JsonNode a : added) {
      String name = a.path("name").asText();
      boolean present = false;
      for (JsonNode m : merged) {
        present |= m.path("name").asText().equals(name);
      }
      if (!present) {
        merged.add(a.deepCopy());
      }
    }
    return merged;
  }

  private static void replaceOrAppendByName(ArrayNode target, List<JsonNode> added) {
    for (JsonNode a : added) {
      String name = a.path("name").asText();
      int index = -1;
      for (int i = 0; i < target.size() && index < 0; i++) {
        if (target.get(i).path("name").asText().equals(name)) {
          index = i;
        }
      }
      if (index >= 0) {
        target.set(index, a.deepCopy());
      } else {
        target.add(a.deepCopy());
      }
    }
  }

  /**
   * OLM's OverrideDeploymentAffinity: an empty override clears the affinity; otherwise each of
   * nodeAffinity, podAffinity and podAntiAffinity given in the override replaces the deployment's
   * (an empty one removes it). Upstream clears the whole affinity when podAntiAffinity is {} (an
   * evident slip); here only that attribute goes.
   */
  private static void overrideAffinity(ObjectNode podSpec, JsonNode affinity) {
    JsonNode current = podSpec.get("affinity");
    if (affinity.isEmpty()) {
      podSpec.remove("affinity");
      return;
    }
    if (!(current instanceof ObjectNode existing) || current.isEmpty()) {
      podSpec.set("affinity", affinity.deepCopy());
      return;
    }
    for (String part : List.of("nodeAffinity", "podAffinity", "podAntiAffinity")) {
      JsonNode value = affinity.get(part);
      if (value == null || value.isNull()) {
        continue;
      }
      if (value.isEmpty()) {
        existing.remove(part);
      } else {
        existing.set(part, value.deepCopy());
      }
    }
    if (existing.isEmpty()) {
      podSpec.remove("affinity");
    }
  }

  private static void addMissing(ObjectNode metadata, Map<String, String> values) {
    ObjectNode annotations = object(metadata, "annotations");
    values.forEach(
        (k, v) -> {
          if (!annotations.has(k)) {
            annotations.put(k, v);
          }
        });
  }

  private static boolean contains(ArrayNode array, JsonNode value) {
    for (JsonNode e : array) {
      if (e.equals(value)) {
        return true;
      }
    }
    return false;
  }

  static ObjectNode object(ObjectNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node instanceof ObjectNode o) {
      return o;
    }
    return parent.putObject(field);
  }

  static ArrayNode array(ObjectNode parent, String field) {
    JsonNode node = parent.get(field);
    if (node instanceof ArrayNode a) {
      return a;
    }
    return parent.putArray(field);
  }
}
