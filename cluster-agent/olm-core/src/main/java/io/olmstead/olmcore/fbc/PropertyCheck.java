package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Shape checks of the well-known property values (upstream property.Parse); unknown types pass. */
final class PropertyCheck {

    private PropertyCheck() {
    }

    static void check(Bundle b, Consumer<String> error) {
        List<Property> props = b.rawProperties();
        for (int i = 0; i < props.size(); i++) {
            Property p = props.get(i);
            String problem = switch (p.type()) {
                case "olm.package" -> fields(p.value(), "packageName", "version", null);
                case "olm.gvk", "olm.gvk.required" -> fields(p.value(), "group", "version", "kind");
                case "olm.package.required" -> fields(p.value(), "packageName", "versionRange", null);
                case "olm.bundle.object" -> fields(p.value(), "data", null, null);
                // a deferred (raw) csv.metadata value was an object when it was tokenized
                case "olm.csv.metadata" -> p.value() != null && (p.value().isObject() || p.value().isPojo())
                    ? null : "value must be an object";
                default -> null;
            };
            if (problem != null) {
                error.accept("parse property[" + i + "] of type \"" + p.type() + "\": " + problem);
            }
        }
    }

    /** One pass over the value's entries (cheaper than a lookup per expected field on thousands of olm.gvk). */
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
