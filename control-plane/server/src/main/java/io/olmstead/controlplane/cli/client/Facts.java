package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A cluster's facts as {@code describe} prints them: nested objects flattened to dotted keys
 * ({@code hypershift.release: 4.17.3}), lists joined with commas, so no value prints as an empty
 * {@code key=}. Pure.
 */
final class Facts {
  private Facts() {}

  static List<String> lines(JsonNode facts) {
    List<String> lines = new ArrayList<>();
    flatten("", facts, lines);
    return lines;
  }

  private static void flatten(String prefix, JsonNode node, List<String> lines) {
    if (node.isObject()) {
      if (node.isEmpty() && !prefix.isEmpty()) {
        lines.add(prefix + ": {}");
      }
      for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) node::fields) {
        flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), lines);
      }
    } else if (node.isArray()) {
      boolean scalars = true;
      for (JsonNode item : node) {
        scalars &= item.isValueNode();
      }
      if (scalars) {
        lines.add(prefix + ": " + (node.isEmpty() ? "[]" : Kind.joined(node)));
      } else {
        for (int i = 0; i < node.size(); i++) {
          flatten(prefix + "[" + i + "]", node.get(i), lines);
        }
      }
    } else if (!node.isMissingNode()) {
      lines.add(prefix + ": " + (node.isNull() ? "<none>" : node.asText()));
    }
  }
}
