package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.function.Consumer;

/** Shape checks of the well-known property values (upstream property.Parse); unknown types pass. */
final class PropertyCheck {

    private PropertyCheck() {
    }

    static void check(Bundle b, Consumer<String> error) {
        List<Property> props = b.properties();
        for (int i = 0; i < props.size(); i++) {
            Property p = props.get(i);
            String problem = switch (p.type()) {
                case "olm.package" -> fields(p.value(), "packageName", "version");
                case "olm.gvk", "olm.gvk.required" -> fields(p.value(), "group", "version", "kind");
                case "olm.package.required" -> fields(p.value(), "packageName", "versionRange");
                case "olm.bundle.object" -> fields(p.value(), "data");
                case "olm.csv.metadata" -> p.value() != null && p.value().isObject() ? null : "value must be an object";
                default -> null;
            };
            if (problem != null) {
                error.accept("parse property[" + i + "] of type \"" + p.type() + "\": " + problem);
            }
        }
    }

    private static String fields(JsonNode v, String... names) {
        if (v == null || !v.isObject()) {
            return "value must be an object";
        }
        for (String n : names) {
            JsonNode f = v.get(n);
            if (f != null && !f.isNull() && !f.isTextual()) {
                return "field \"" + n + "\" must be a string";
            }
        }
        return null;
    }
}
