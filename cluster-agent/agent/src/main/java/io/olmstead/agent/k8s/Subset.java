package io.olmstead.agent.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Decides whether an object already in the cluster carries everything the agent wants, so unchanged
 * objects are not written. Fields the server adds (defaults, status, metadata) are ignored; a value
 * the agent sets that differs, or a list of a different length, is a change.
 */
public final class Subset {
  private Subset() {}

  /**
   * True when every field of {@code desired} (recursively) is present with the same value in {@code
   * actual}.
   */
  public static boolean contains(JsonNode actual, JsonNode desired) {
    if (desired == null || desired.isNull() || desired.isMissingNode()) {
      return true;
    }
    if (actual == null || actual.isMissingNode()) {
      return false;
    }
    if (desired.isObject()) {
      if (!actual.isObject()) {
        return false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = desired.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (!contains(actual.get(field.getKey()), field.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired.isArray()) {
      if (!actual.isArray() || actual.size() != desired.size()) {
        return false;
      }
      for (int i = 0; i < desired.size(); i++) {
        if (!contains(actual.get(i), desired.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (desired.isNumber() && actual.isNumber()) {
      return desired.decimalValue().compareTo(actual.decimalValue()) == 0;
    }
    // Kubernetes round-trips some scalars as text (quantities, int-or-string); compare their text
    // forms.
    return desired.equals(actual)
        || desired.isValueNode()
            && actual.isValueNode()
            && desired.asText().equals(actual.asText());
  }
}
