package io.olmstead.controlplane.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Whether an object already is what a file asks: every field the file's spec gives must equal the
 * object's (mappings compared key by key, so fields the server adds do not count; lists and scalars
 * exactly). Pure, unit-tested.
 */
final class SpecDiff {
  private SpecDiff() {}

  /** The top-level fields of {@code spec} whose value {@code current} does not have. */
  static List<String> changedFields(JsonNode spec, JsonNode current) {
    List<String> changed = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = spec.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!covers(field.getValue(), current.path(field.getKey()))) {
        changed.add(field.getKey());
      }
    }
    return changed;
  }

  /** {@code version: {"pin":"0.9.2"} -> {"pin":"0.9.4"}} for each changed field. */
  static List<String> describe(List<String> changed, JsonNode spec, JsonNode current) {
    return changed.stream()
        .map(f -> f + ": " + shown(current.path(f)) + " -> " + shown(spec.path(f)))
        .toList();
  }

  private static String shown(JsonNode value) {
    String text = value.isMissingNode() ? "<none>" : value.toString();
    return text.length() > 80 ? text.substring(0, 77) + "..." : text;
  }

  static boolean covers(JsonNode wanted, JsonNode actual) {
    if (wanted.isObject()) {
      if (!actual.isObject()) {
        return wanted.isEmpty() && (actual.isMissingNode() || actual.isNull());
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = wanted.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (!covers(field.getValue(), actual.path(field.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (wanted.isNumber() && actual.isNumber()) {
      return wanted.decimalValue().compareTo(actual.decimalValue()) == 0;
    }
    if (wanted.isNull()) {
      return actual.isNull() || actual.isMissingNode();
    }
    return wanted.equals(actual);
  }
}
