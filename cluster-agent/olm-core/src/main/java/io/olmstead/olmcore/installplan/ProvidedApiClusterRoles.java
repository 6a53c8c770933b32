package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OLM's {@code ensureClusterRolesForCSV}: for each CRD version the CSV owns, ClusterRoles
 * {@code <crd>-<version>-admin|edit|view} on its resource and {@code <crd>-<version>-crdview} (get on the CRD itself),
 * labelled to aggregate into the cluster's admin, edit and view roles, so namespace admins, editors and viewers can use
 * the custom resources. Pure.
 */
final class ProvidedApiClusterRoles {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    // OLM's VerbsForSuffix
    private static final Map<String, List<String>> VERBS = verbs();

    private ProvidedApiClusterRoles() {}

    static List<JsonNode> forCsv(JsonNode csv) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode owned : csv.path("spec").path("customresourcedefinitions").path("owned")) {
            String name = owned.path("name").asText("");
            String version = owned.path("version").asText("");
            int dot = name.indexOf('.');
            if (dot <= 0 || dot == name.length() - 1 || version.isEmpty()) {
                continue; // OLM fails the CSV on such a name; the CRD checks report it
            }
            String plural = name.substring(0, dot);
            String group = name.substring(dot + 1);
            String prefix = name + "-" + version + "-";
            String gvkHash = gvkHash(owned.path("kind").asText(""), version, group);
            VERBS.forEach((suffix, verbs) ->
                    out.add(clusterRole(prefix + suffix, suffix, gvkHash, verbs, group, plural, null)));
            out.add(clusterRole(prefix + "crdview", "view", gvkHash, List.of("get"), "apiextensions.k8s.io",
                    "customresourcedefinitions", name));
        }
        return out;
    }

    private static JsonNode clusterRole(String name, String suffix, String gvkHash, List<String> verbs, String group,
                                        String resource, String resourceName) {
        ObjectNode role = JSON.objectNode().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "ClusterRole");
        ObjectNode labels = role.putObject("metadata").put("name", name).putObject("labels");
        labels.put("rbac.authorization.k8s.io/aggregate-to-" + suffix, "true");
        labels.put("olm.opgroup.permissions/aggregate-to-" + gvkHash + "-" + suffix, "true");
        labels.put(OperatorGroupRbac.OLM_MANAGED, "true");
        ObjectNode rule = role.putArray("rules").addObject();
        verbs.forEach(rule.putArray("verbs")::add);
        rule.putArray("apiGroups").add(group);
        rule.putArray("resources").add(resource);
        if (resourceName != null) {
            rule.putArray("resourceNames").add(resourceName);
        }
        return role;
    }

    /** OLM's APIKeyToGVKHash: FNV-1a 64 of {@code Kind.version.group}, in hex. */
    static String gvkHash(String kind, String version, String group) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : (kind + "." + version + "." + group).getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return Long.toHexString(hash);
    }

    private static Map<String, List<String>> verbs() {
        Map<String, List<String>> verbs = new LinkedHashMap<>();
        verbs.put("admin", List.of("*"));
        verbs.put("edit", List.of("create", "update", "patch", "delete"));
        verbs.put("view", List.of("get", "list", "watch"));
        return verbs;
    }
}
