package io.olmstead.apispec.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A fast, conservative check of an inventory message against {@code
 * agent-protocol/schemas/inventory.json}: true only when the message certainly satisfies the schema
 * (and carries no NUL), so the general JSON Schema validator, which costs about as much as decoding
 * a report of 20 operators, runs only for the rare report this check does not pass (and then gives
 * the message naming the field). {@code InventoryQuickCheckTest} breaks every constraint of the
 * schema one at a time and checks that this check never passes what the schema refuses.
 */
final class InventoryQuickCheck {
  private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");
  private static final Set<String> PHASES =
      Set.of(
          "Pending",
          "RequiresApproval",
          "InstallReady",
          "Installing",
          "Succeeded",
          "Failed",
          "Replacing",
          "Deleting",
          "Unknown");

  private InventoryQuickCheck() {}

  static boolean passes(JsonNode m) {
    if (!m.isObject()
        || !"inventory".equals(m.path("type").textValue())
        || !integer(m.get("protocol"), 1, 1000)
        || !optional(m.get("id"), n -> text(n, 0, 128))
        || !optional(m.get("cluster"), InventoryQuickCheck::label)
        || !optional(m.get("truncated"), JsonNode::isBoolean)
        || !array(m.get("operators"), 200)
        || !noNulInOtherFields(
            m, Set.of("type", "protocol", "id", "cluster", "truncated", "operators"))) {
      return false;
    }
    for (JsonNode op : m.get("operators")) {
      if (!operator(op)) {
        return false;
      }
    }
    return true;
  }

  private static boolean operator(JsonNode op) {
    if (!op.isObject()
        || !text(op.get("subscription"), 1, 253)
        || !label(op.get("namespace"))
        || !text(op.get("package"), 1, 253)
        || !optional(op.get("bundle"), n -> text(n, 0, 512))
        || !optional(op.get("version"), n -> text(n, 0, 128))
        || !optional(op.get("phase"), n -> n.isTextual() && PHASES.contains(n.textValue()))
        || !optional(op.get("reason"), n -> text(n, 0, 256))
        || !optional(op.get("dependencyOf"), n -> text(n, 0, 253))
        || !optional(op.get("pods"), InventoryQuickCheck::pods)
        || !optional(op.get("customResources"), n -> array(n, 64))
        || !optional(op.get("stacks"), n -> array(n, 100))
        || !noNulInOtherFields(
            op,
            Set.of(
                "subscription",
                "namespace",
                "package",
                "bundle",
                "version",
                "phase",
                "reason",
                "dependencyOf",
                "pods",
                "customResources",
                "stacks"))) {
      return false;
    }
    for (JsonNode cr : op.path("customResources")) {
      if (!cr.isObject()
          || !text(cr.get("name"), 1, 253)
          || !text(cr.get("kind"), 1, 63)
          || !integer(cr.get("count"), 0, 100_000_000)
          || !optional(cr.get("capped"), JsonNode::isBoolean)
          || !noNulInOtherFields(cr, Set.of("name", "kind", "count", "capped"))) {
        return false;
      }
    }
    for (JsonNode s : op.path("stacks")) {
      if (!s.isObject()
          || !text(s.get("kind"), 1, 63)
          || !optional(s.get("namespace"), n -> text(n, 0, 63))
          || !text(s.get("name"), 1, 253)
          || !pods(s.get("pods"))
          || !noNulInOtherFields(s, Set.of("kind", "namespace", "name", "pods"))) {
        return false;
      }
    }
    return true;
  }

  private static boolean pods(JsonNode p) {
    return p != null
        && p.isObject()
        && integer(p.get("count"), 0, 1_000_000)
        && integer(p.get("restarts"), 0, 1_000_000_000)
        && resources(p.get("requests"))
        && optional(p.get("limits"), InventoryQuickCheck::resources)
        && optional(p.get("usage"), InventoryQuickCheck::resources)
        && noNulInOtherFields(p, Set.of("count", "restarts", "requests", "limits", "usage"));
  }

  private static boolean resources(JsonNode r) {
    return r != null
        && r.isObject()
        && integer(r.get("cpuMillis"), 0, 1_000_000_000)
        && integer(r.get("memoryBytes"), 0, 9_007_199_254_740_991L)
        && noNulInOtherFields(r, Set.of("cpuMillis", "memoryBytes"));
  }

  private static boolean optional(JsonNode n, Predicate<JsonNode> check) {
    return n == null || check.test(n);
  }

  /**
   * UTF-16 length bounds the code point count from above, so a length within bounds is within the
   * schema's.
   */
  private static boolean text(JsonNode n, int min, int max) {
    if (n == null || !n.isTextual()) {
      return false;
    }
    String s = n.textValue();
    return s.codePointCount(0, s.length()) >= min && s.length() <= max && s.indexOf('\u0000') < 0;
  }

  private static boolean label(JsonNode n) {
    return n != null && n.isTextual() && DNS_LABEL.matcher(n.textValue()).matches();
  }

  private static boolean integer(JsonNode n, long min, long max) {
    return n != null
        && n.isIntegralNumber()
        && n.canConvertToLong()
        && n.longValue() >= min
        && n.longValue() <= max;
  }

  private static boolean array(JsonNode n, int max) {
    return n != null && n.isArray() && n.size() <= max;
  }

  /**
   * Fields the schema does not name may hold anything, but no NUL (checked like the decoder does
   * everywhere).
   */
  private static boolean noNulInOtherFields(JsonNode object, Set<String> named) {
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (f.getKey().indexOf('\u0000') >= 0
          || (!named.contains(f.getKey()) && !noNul(f.getValue()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean noNul(JsonNode n) {
    if (n.isTextual()) {
      return n.textValue().indexOf('\u0000') < 0;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (f.getKey().indexOf('\u0000') >= 0 || !noNul(f.getValue())) {
        return false;
      }
    }
    if (n.isArray()) {
      for (JsonNode e : n) {
        if (!noNul(e)) {
          return false;
        }
      }
    }
    return true;
  }
}
