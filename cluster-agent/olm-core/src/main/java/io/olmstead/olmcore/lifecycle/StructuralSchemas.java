package io.olmstead.olmcore.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Converts a Kubernetes structural schema ({@code openAPIV3Schema}) into a JSON Schema (draft 4,
 * whose boolean {@code exclusiveMinimum/Maximum} match OpenAPI v3) that accepts what the API server
 * accepts:
 *
 * <ul>
 *   <li>{@code nullable: true} also accepts {@code null};
 *   <li>{@code x-kubernetes-int-or-string: true} accepts an integer or a string;
 *   <li>unknown fields are allowed everywhere, as the API server prunes rather than rejects them,
 *       which also covers {@code x-kubernetes-preserve-unknown-fields} and embedded resources;
 *   <li>{@code metadata}, {@code apiVersion} and {@code kind} at the root are left to the API
 *       server.
 * </ul>
 *
 * Patterns are RE2 (Go) and are translated for Java ({@link GoRegex}); one Java cannot express is
 * dropped. Not reproduced: CEL rules ({@code x-kubernetes-validations}), list-type/map-keys
 * uniqueness, and {@code format} checks (dropped, because a validator stricter than the API server
 * would block safe upgrades).
 */
final class StructuralSchemas {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Set<String> ROOT_MANAGED = Set.of("metadata", "apiVersion", "kind");
  private static final Set<String> DROPPED =
      Set.of(
          "nullable",
          "format",
          "default",
          "example",
          "externalDocs",
          "description",
          "readOnly",
          "writeOnly",
          "deprecated",
          "discriminator",
          "xml",
          "$schema",
          "id");

  private StructuralSchemas() {}

  /** The JSON Schema for a CRD version's {@code openAPIV3Schema}. */
  static JsonNode toJsonSchema(JsonNode openApiV3Schema) {
    return convert(openApiV3Schema, true);
  }

  private static JsonNode convert(JsonNode schema, boolean root) {
    if (schema == null || !schema.isObject()) {
      return schema == null ? NODES.objectNode() : schema;
    }
    ObjectNode out = NODES.objectNode();
    Iterator<Map.Entry<String, JsonNode>> fields = schema.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      String key = f.getKey();
      JsonNode value = f.getValue();
      if (key.startsWith("x-kubernetes-") || DROPPED.contains(key)) {
        continue;
      }
      switch (key) {
        case "properties":
        case "definitions":
          out.set(key, convertMap(value, root && key.equals("properties"), false));
          break;
        case "patternProperties":
          out.set(key, convertMap(value, false, true));
          break;
        case "pattern":
          // a pattern Java cannot express is dropped: never stricter than the API server
          GoRegex.toJava(value.asText()).ifPresent(java -> out.put(key, java));
          break;
        case "items":
        case "additionalProperties":
        case "additionalItems":
        case "not":
          out.set(key, value.isObject() ? convert(value, false) : convertArrayOrCopy(value));
          break;
        case "allOf":
        case "anyOf":
        case "oneOf":
          out.set(key, convertArrayOrCopy(value));
          break;
        case "required":
          out.set(key, root ? withoutRootManaged(value) : value);
          break;
        default:
          out.set(key, value);
      }
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false) && !out.has("type")) {
      out.set("type", NODES.arrayNode().add("integer").add("string"));
    }
    if (schema.path("nullable").asBoolean(false)) {
      // wrapping keeps enum/anyOf constraints intact for non-null values
      ObjectNode wrapper = NODES.objectNode();
      wrapper.putArray("anyOf").add(NODES.objectNode().put("type", "null")).add(out);
      return wrapper;
    }
    return out;
  }

  private static JsonNode convertMap(
      JsonNode map, boolean dropRootManaged, boolean keysArePatterns) {
    if (!map.isObject()) {
      return map;
    }
    ObjectNode out = NODES.objectNode();
    map.fields()
        .forEachRemaining(
            e -> {
              if (dropRootManaged && ROOT_MANAGED.contains(e.getKey())) {
                return;
              }
              if (keysArePatterns) {
                GoRegex.toJava(e.getKey()).ifPresent(k -> out.set(k, convert(e.getValue(), false)));
              } else {
                out.set(e.getKey(), convert(e.getValue(), false));
              }
            });
    return out;
  }

  private static JsonNode convertArrayOrCopy(JsonNode value) {
    if (!value.isArray()) {
      return value;
    }
    ArrayNode out = NODES.arrayNode();
    value.forEach(v -> out.add(convert(v, false)));
    return out;
  }

  private static JsonNode withoutRootManaged(JsonNode required) {
    if (!required.isArray()) {
      return required;
    }
    ArrayNode out = NODES.arrayNode();
    required.forEach(
        r -> {
          if (!ROOT_MANAGED.contains(r.asText())) {
            out.add(r);
          }
        });
    return out;
  }
}
