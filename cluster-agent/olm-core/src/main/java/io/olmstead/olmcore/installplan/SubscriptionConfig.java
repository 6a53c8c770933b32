package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code config} block of a Subscription: overrides OLM applies to the operator's deployments.
 * Lists are never null (empty = nothing to apply); the object-valued fields are null when absent.
 */
public record SubscriptionConfig(
    List<JsonNode> env,
    List<JsonNode> envFrom,
    JsonNode resources,
    Map<String, String> nodeSelector,
    List<JsonNode> tolerations,
    JsonNode affinity,
    List<JsonNode> volumes,
    List<JsonNode> volumeMounts,
    Map<String, String> annotations) {

  private static final SubscriptionConfig EMPTY =
      new SubscriptionConfig(
          List.of(), List.of(), null, null, List.of(), null, List.of(), List.of(), Map.of());

  public SubscriptionConfig {
    env = env == null ? List.of() : List.copyOf(env);
    envFrom = envFrom == null ? List.of() : List.copyOf(envFrom);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
    volumeMounts = volumeMounts == null ? List.of() : List.copyOf(volumeMounts);
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    nodeSelector = nodeSelector == null ? null : Map.copyOf(nodeSelector);
  }

  /** No overrides at all. */
  public static SubscriptionConfig empty() {
    return EMPTY;
  }

  /**
   * Reads a Subscription {@code spec.config} object; unknown fields are ignored, a null/missing
   * node means empty.
   */
  public static SubscriptionConfig fromJson(JsonNode config) {
    if (config == null || !config.isObject()) {
      return EMPTY;
    }
    return new SubscriptionConfig(
        list(config.get("env")),
        list(config.get("envFrom")),
        object(config.get("resources")),
        stringMap(config.get("nodeSelector")),
        list(config.get("tolerations")),
        object(config.get("affinity")),
        list(config.get("volumes")),
        list(config.get("volumeMounts")),
        stringMap(config.get("annotations")));
  }

  private static List<JsonNode> list(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node != null && node.isArray()) {
      node.forEach(out::add);
    }
    return out;
  }

  private static JsonNode object(JsonNode node) {
    return node != null && node.isObject() ? node : null;
  }

  private static Map<String, String> stringMap(JsonNode node) {
    if (node == null || !node.isObject()) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }
}
