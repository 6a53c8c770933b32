package io.olmstead.olmcore.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding.Severity;
import java.util.ArrayList;
import java.util.List;

/** The rules on one schema node's own keywords (enum, default, bounds), apart from its children. */
final class SchemaFacets {

  /** Receives one finding at the node being compared. */
  interface Sink {
    void add(String id, Severity severity, String message);
  }

  /**
   * A lower bound tightens when it rises, an upper bound when it falls; adding one where none was
   * tightens.
   */
  private record Bound(String keyword, boolean lower, String id) {}

  private static final List<Bound> BOUNDS =
      List.of(
          new Bound("minimum", true, "MinimumRaised"),
          new Bound("maximum", false, "MaximumLowered"),
          new Bound("minLength", true, "MinLengthRaised"),
          new Bound("maxLength", false, "MaxLengthLowered"),
          new Bound("minItems", true, "MinItemsRaised"),
          new Bound("maxItems", false, "MaxItemsLowered"),
          new Bound("minProperties", true, "MinPropertiesRaised"),
          new Bound("maxProperties", false, "MaxPropertiesLowered"));

  private SchemaFacets() {}

  static void compare(JsonNode before, JsonNode after, Sink sink) {
    enums(before.path("enum"), after.path("enum"), sink);
    defaults(before.get("default"), after.get("default"), sink);
    for (Bound b : BOUNDS) {
      JsonNode was = before.get(b.keyword());
      JsonNode now = after.get(b.keyword());
      if (now == null || !now.isNumber()) {
        continue;
      }
      if (was == null || !was.isNumber()) {
        sink.add(b.id(), Severity.BREAKING, b.keyword() + " " + now.asText() + " is added");
      } else if (b.lower()
          ? now.decimalValue().compareTo(was.decimalValue()) > 0
          : now.decimalValue().compareTo(was.decimalValue()) < 0) {
        sink.add(
            b.id(),
            Severity.BREAKING,
            b.keyword() + " changes from " + was.asText() + " to " + now.asText());
      }
    }
  }

  private static void enums(JsonNode before, JsonNode after, Sink sink) {
    if (!after.isArray()) {
      return;
    }
    if (!before.isArray()) {
      sink.add("EnumAdded", Severity.BREAKING, "values are restricted to " + after);
      return;
    }
    List<String> removed = new ArrayList<>();
    for (JsonNode value : before) {
      if (!contains(after, value)) {
        removed.add(value.toString());
      }
    }
    if (!removed.isEmpty()) {
      sink.add("EnumValueRemoved", Severity.BREAKING, "enum values " + removed + " are removed");
    }
  }

  private static boolean contains(JsonNode array, JsonNode value) {
    for (JsonNode v : array) {
      if (v.equals(value)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adding a default only fills fields that were empty, so it warns; changing or removing one
   * silently changes what existing objects mean, so it breaks.
   */
  private static void defaults(JsonNode before, JsonNode after, Sink sink) {
    if (before == null && after != null) {
      sink.add("DefaultAdded", Severity.WARNING, "default " + after + " is added");
    } else if (before != null && after == null) {
      sink.add("DefaultRemoved", Severity.BREAKING, "default " + before + " is removed");
    } else if (before != null && !before.equals(after)) {
      sink.add(
          "DefaultChanged", Severity.BREAKING, "default changes from " + before + " to " + after);
    }
  }
}
