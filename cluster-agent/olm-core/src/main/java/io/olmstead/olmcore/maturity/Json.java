package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Lenient reads of manifests: a field of the wrong type reads as absent, so malformed objects never
 * throw.
 */
final class Json {

  private Json() {}

  /** A text field, or null when absent or not text. */
  static String text(JsonNode node, String field) {
    JsonNode v = node == null ? null : node.get(field);
    return v != null && v.isTextual() ? v.textValue() : null;
  }

  /** The elements of an array field; empty when absent or not an array. */
  static List<JsonNode> array(JsonNode node, String field) {
    JsonNode v = node == null ? null : node.get(field);
    List<JsonNode> out = new ArrayList<>();
    if (v != null && v.isArray()) {
      v.forEach(out::add);
    }
    return out;
  }

  /** The text elements of an array field. */
  static List<String> strings(JsonNode node, String field) {
    List<String> out = new ArrayList<>();
    for (JsonNode e : array(node, field)) {
      if (e.isTextual()) {
        out.add(e.textValue());
      }
    }
    return out;
  }

  /** "Kind name" for messages and finding objects. */
  static String describe(JsonNode manifest) {
    String kind = text(manifest, "kind");
    String name = text(manifest.path("metadata"), "name");
    return (kind == null ? "object" : kind) + " " + (name == null ? "(unnamed)" : name);
  }

  /**
   * The CSV's metadata in the shape of an {@code olm.csv.metadata} property (spec fields plus
   * annotations, labels).
   */
  static JsonNode csvMetadataOf(JsonNode csv) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    JsonNode spec = csv.path("spec");
    if (spec.isObject()) {
      spec.fields()
          .forEachRemaining(
              e -> {
                if (!"install".equals(e.getKey())) {
                  out.set(e.getKey(), e.getValue());
                }
              });
    }
    JsonNode meta = csv.path("metadata");
    if (meta.path("annotations").isObject()) {
      out.set("annotations", meta.get("annotations"));
    }
    if (meta.path("labels").isObject()) {
      out.set("labels", meta.get("labels"));
    }
    return out;
  }
}
