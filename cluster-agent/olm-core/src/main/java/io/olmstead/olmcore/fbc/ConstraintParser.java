package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decodes an {@code olm.constraint} value in OLM's two steps, with its messages: {@code
 * constraints.Parse} (Go decoding with unknown fields disallowed, keys matched case-insensitively,
 * a 128 KiB size limit), then the resolver's conversion (the first set form wins; a constraint with
 * no form is "constraint is empty"; a package range must parse). CEL rules are kept as text: only
 * an empty rule is refused here, not compiled.
 */
final class ConstraintParser {

  static final int MAX_SIZE = 2 << 16;
  private static final String PARSE = "parse olm.constraint: ";
  private static final String CONVERT = "convert olm.constraint to resolver predicate: ";

  /** The Go types of upstream's decoding, named as its error messages name them. */
  private enum Shape {
    STRING("string", null),
    CONSTRAINT("constraints.Constraint", "Constraint"),
    GVK("constraints.GVKConstraint", "GVKConstraint"),
    PACKAGE("constraints.PackageConstraint", "PackageConstraint"),
    CEL("constraints.Cel", "Cel"),
    COMPOUND("constraints.CompoundConstraint", "CompoundConstraint"),
    LIST("[]constraints.Constraint", null);

    final String goType;
    final String structName;

    Shape(String goType, String structName) {
      this.goType = goType;
      this.structName = structName;
    }

    Map<String, Shape> fields() {
      return switch (this) {
        case CONSTRAINT ->
            Map.of(
                "failureMessage",
                STRING,
                "cel",
                CEL,
                "package",
                PACKAGE,
                "gvk",
                GVK,
                "all",
                COMPOUND,
                "any",
                COMPOUND,
                "not",
                COMPOUND,
                "none",
                COMPOUND);
        case GVK -> Map.of("group", STRING, "kind", STRING, "version", STRING);
        case PACKAGE -> Map.of("packageName", STRING, "versionRange", STRING);
        case CEL -> Map.of("rule", STRING);
        case COMPOUND -> Map.of("constraints", LIST);
        default -> Map.of();
      };
    }
  }

  private ConstraintParser() {}

  static Decoded<Constraint> parse(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return Decoded.error(PARSE + "EOF");
    }
    if (value.isContainerNode()
        && value.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SIZE) {
      return Decoded.error(
          PARSE
              + "olm.constraint value is greater than max constraint size "
              + MAX_SIZE
              + " bytes");
    }
    String shapeError = shape(value, Shape.CONSTRAINT, null, "");
    if (shapeError != null) {
      return Decoded.error(PARSE + shapeError);
    }
    try {
      return Decoded.ok(convert(value));
    } catch (ConvertError e) {
      return Decoded.error(CONVERT + e.getMessage());
    }
  }

  /**
   * The first error Go's decoder would report, or null; {@code struct} is the innermost enclosing
   * struct.
   */
  private static String shape(JsonNode v, Shape s, String struct, String path) {
    if (v.isNull()) {
      return null;
    }
    if (s == Shape.STRING) {
      return v.isTextual() ? null : mismatch(v, s, struct, path);
    }
    if (s == Shape.LIST) {
      if (!v.isArray()) {
        return mismatch(v, s, struct, path);
      }
      for (JsonNode e : v) {
        String err = shape(e, Shape.CONSTRAINT, struct, path);
        if (err != null) {
          return err;
        }
      }
      return null;
    }
    if (!v.isObject()) {
      return mismatch(v, s, struct, path);
    }
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      String key = fieldName(s, e.getKey());
      if (key == null) {
        return "json: unknown field \"" + e.getKey() + "\"";
      }
      String err =
          shape(
              e.getValue(),
              s.fields().get(key),
              s.structName,
              path.isEmpty() ? key : path + "." + key);
      if (err != null) {
        return err;
      }
    }
    return null;
  }

  private static String mismatch(JsonNode v, Shape s, String struct, String path) {
    String kind =
        v.isTextual()
            ? "string"
            : v.isNumber() ? "number" : v.isBoolean() ? "bool" : v.isArray() ? "array" : "object";
    return struct == null
        ? "json: cannot unmarshal " + kind + " into Go value of type " + s.goType
        : "json: cannot unmarshal "
            + kind
            + " into Go struct field "
            + struct
            + "."
            + path
            + " of type "
            + s.goType;
  }

  /** The declared field a JSON key binds to (Go matches keys case-insensitively), or null. */
  private static String fieldName(Shape s, String key) {
    for (String f : s.fields().keySet()) {
      if (f.equalsIgnoreCase(key)) {
        return f;
      }
    }
    return null;
  }

  private static JsonNode field(JsonNode v, String name) {
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isNull()) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String text(JsonNode v, String name) {
    JsonNode f = v == null ? null : field(v, name);
    return f == null ? null : f.textValue();
  }

  /** The resolver's conversion of an already well-shaped value. */
  private static Constraint convert(JsonNode v) throws ConvertError {
    if (v.isNull()) {
      throw new ConvertError("constraint is empty");
    }
    String message = text(v, "failureMessage");
    JsonNode gvk = field(v, "gvk");
    if (gvk != null) {
      return new Constraint.GvkConstraint(
          message, new Gvk(text(gvk, "group"), text(gvk, "version"), text(gvk, "kind")));
    }
    JsonNode pkg = field(v, "package");
    if (pkg != null) {
      String range = text(pkg, "versionRange");
      try {
        VersionRange.parse(range == null ? "" : range);
      } catch (VersionException e) {
        throw new ConvertError(e.getMessage());
      }
      return new Constraint.PackageConstraint(
          message, new PackageRequirement(text(pkg, "packageName"), range));
    }
    JsonNode all = field(v, "all");
    if (all != null) {
      return new Constraint.All(message, nested(all));
    }
    JsonNode any = field(v, "any");
    if (any != null) {
      return new Constraint.Any(message, nested(any));
    }
    JsonNode not = field(v, "not");
    if (not != null) {
      return new Constraint.Not(message, nested(not));
    }
    JsonNode cel = field(v, "cel");
    if (cel != null) {
      String rule = text(cel, "rule");
      if (rule == null || rule.isBlank()) {
        throw new ConvertError("cel rule is empty");
      }
      return new Constraint.Cel(message, rule);
    }
    throw new ConvertError("constraint is empty");
  }

  private static List<Constraint> nested(JsonNode compound) throws ConvertError {
    JsonNode list = field(compound, "constraints");
    List<Constraint> out = new ArrayList<>();
    if (list != null) {
      for (JsonNode c : list) {
        out.add(convert(c));
      }
    }
    return out;
  }

  /** Why a well-shaped constraint cannot become a resolver predicate. */
  private static final class ConvertError extends Exception {
    ConvertError(String message) {
      super(message, null, false, false);
    }
  }
}
