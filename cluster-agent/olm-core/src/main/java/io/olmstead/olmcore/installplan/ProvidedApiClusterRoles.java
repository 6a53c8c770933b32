package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * OLM's {@code ensureClusterRolesForCSV}: for each CRD version the CSV owns, ClusterRoles {@code
 * <crd>-<version>-admin|edit|view} on its resource and {@code <crd>-<version>-crdview} (get on the
 * CRD itself), labelled to aggregate into the cluster's admin, edit and view roles, so namespace
 * admins, editors and viewers can use the custom resources. Pure. Every install of the CRD's
 * package plans the same roles: they are shared like the CRD.
 */
public final class ProvidedApiClusterRoles {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final String AGGREGATE_PREFIX = "olm.opgroup.permissions/aggregate-to-";
  // OLM's VerbsForSuffix
  private static final Map<String, List<String>> VERBS = verbs();

  private ProvidedApiClusterRoles() {}

  /** Whether {@code object} is one of the aggregated ClusterRoles {@link #forCsv} plans. */
  public static boolean isProvidedApiRole(JsonNode object) {
    if (!"ClusterRole".equals(object.path("kind").asText())) {
      return false;
    }
    Iterator<String> labels = object.path("metadata").path("labels").fieldNames();
    while (labels.hasNext()) {
      if (labels.next().startsWith(AGGREGATE_PREFIX)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The CRD a role of {@link #forCsv} is about ({@code <plural>.<group>}), empty for any other
   * object.
   */
  public static Optional<String> crdOf(JsonNode role) {
    if (!isProvidedApiRole(role)) {
      return Optional.empty();
    }
    JsonNode rule = role.path("rules").path(0);
    String named = rule.path("resourceNames").path(0).asText("");
    if (!named.isEmpty()) {
      return Optional.of(named); // crdview: get on the CRD itself
    }
    String resource = rule.path("resources").path(0).asText("");
    String group = rule.path("apiGroups").path(0).asText("");
    return resource.isEmpty() || group.isEmpty()
        ? Optional.empty()
        : Optional.of(resource + "." + group);
  }

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
      VERBS.forEach(
          (suffix, verbs) ->
              out.add(clusterRole(prefix + suffix, suffix, gvkHash, verbs, group, plural, null)));
      out.add(
          clusterRole(
              prefix + "crdview",
              "view",
              gvkHash,
              List.of("get"),
              "apiextensions.k8s.io",
              "customresourcedefinitions",
              name));
    }
    return out;
  }

  private static JsonNode clusterRole(
      String name,
      String suffix,
      String gvkHash,
      List<String> verbs,
      String group,
      String resource,
      String resourceName) {
    ObjectNode role =
        JSON.objectNode()
            .put("apiVersion", "rbac.authorization.k8s.io/v1")
            .put("kind", "ClusterRole");
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
