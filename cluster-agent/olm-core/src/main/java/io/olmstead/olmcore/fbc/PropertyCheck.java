package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Shape checks of the well-known property values (upstream property.Parse, plus OLM's own decoding
 * of {@code olm.constraint} and {@code olm.maxOpenShiftVersion}); unknown types pass and are kept.
 */
final class PropertyCheck {

  private PropertyCheck() {}

  static void check(Bundle b, Consumer<String> error) {
    List<Property> props = b.rawProperties();
    int maxOpenShiftVersions = 0;
    for (int i = 0; i < props.size(); i++) {
      Property p = props.get(i);
      if (MaxOpenShiftVersion.TYPE.equals(p.type())) {
        // OLM's wording has no property index: the bundle is refused as a whole
        String invalid = MaxOpenShiftVersion.parse(p.value()).error();
        if (invalid != null) {
          error.accept(invalid);
        }
        if (++maxOpenShiftVersions == 2) {
          error.accept(
              "defining more than one \""
                  + MaxOpenShiftVersion.TYPE
                  + "\" property is not allowed");
        }
        continue;
      }
      String problem =
          switch (p.type()) {
            case "olm.package" -> fields(p.value(), "packageName", "version", "release");
            case "olm.gvk", "olm.gvk.required" -> fields(p.value(), "group", "version", "kind");
            case "olm.package.required" -> fields(p.value(), "packageName", "versionRange", null);
            case "olm.bundle.object" -> fields(p.value(), "data", null, null);
            case JsonBlobReader.CSV_METADATA -> csvMetadata(p.value());
            case "olm.constraint" -> ConstraintParser.parse(p.value()).error();
            default -> null;
          };
      if (problem != null) {
        error.accept("parse property[" + i + "] of type \"" + p.type() + "\": " + problem);
      }
    }
  }

  /**
   * A value the JSON reader deferred was checked while it was tokenized; no need to decode it here.
   */
  private static String csvMetadata(JsonNode v) {
    if (v != null && v.isPojo() && ((POJONode) v).getPojo() instanceof JsonBlobReader.RawJson raw) {
      return raw.problem();
    }
    return CsvMetadataShape.check(v);
  }

  /**
   * One pass over the value's entries (cheaper than a lookup per expected field on thousands of
   * olm.gvk).
   */
  private static String fields(JsonNode v, String a, String b, String c) {
    if (v == null || !v.isObject()) {
      return "value must be an object";
    }
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      JsonNode f = e.getValue();
      if (!f.isTextual() && !f.isNull()) {
        String n = e.getKey();
        if (n.equals(a) || n.equals(b) || n.equals(c)) {
          return "field \"" + n + "\" must be a string";
        }
      }
    }
    return null;
  }
}
