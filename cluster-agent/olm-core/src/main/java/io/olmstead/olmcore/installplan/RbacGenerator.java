package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * ServiceAccounts, Roles, RoleBindings, ClusterRoles and ClusterRoleBindings for a CSV's {@code
 * permissions} and {@code clusterPermissions}, named the way OLM names them: a readable base plus a
 * content hash, bounded to 63 characters.
 */
final class RbacGenerator {
  static final int MAX_NAME_LENGTH = 63;
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  // The alphabet of k8s.io/apimachinery SafeEncodeString: no vowels, no look-alike characters.
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  /** The generated objects, grouped by kind in apply order. */
  record Rbac(
      List<JsonNode> serviceAccounts,
      List<JsonNode> roles,
      List<JsonNode> roleBindings,
      List<JsonNode> clusterRoles,
      List<JsonNode> clusterRoleBindings) {}

  private RbacGenerator() {}

  static Rbac generate(
      String csvName,
      String namespace,
      JsonNode permissions,
      JsonNode clusterPermissions,
      ObjectNode ownerLabels) {
    Set<String> accounts = new LinkedHashSet<>();
    List<JsonNode> roles = new ArrayList<>();
    List<JsonNode> roleBindings = new ArrayList<>();
    List<JsonNode> clusterRoles = new ArrayList<>();
    List<JsonNode> clusterRoleBindings = new ArrayList<>();
    for (JsonNode permission : permissions) {
      String sa = permission.path("serviceAccountName").asText();
      accounts.add(sa);
      String name = generateName(csvName + "-" + sa, csvName + "\n" + permission);
      roles.add(rbacObject("Role", name, namespace, ownerLabels).set("rules", rules(permission)));
      roleBindings.add(binding("RoleBinding", "Role", name, namespace, sa, namespace, ownerLabels));
    }
    for (JsonNode permission : clusterPermissions) {
      String sa = permission.path("serviceAccountName").asText();
      accounts.add(sa);
      String name = generateName(csvName, csvName + "\n" + namespace + "\n" + permission);
      clusterRoles.add(
          rbacObject("ClusterRole", name, null, ownerLabels).set("rules", rules(permission)));
      clusterRoleBindings.add(
          binding("ClusterRoleBinding", "ClusterRole", name, null, sa, namespace, ownerLabels));
    }
    List<JsonNode> serviceAccounts = new ArrayList<>();
    for (String sa : accounts) {
      ObjectNode obj = JSON.objectNode().put("apiVersion", "v1").put("kind", "ServiceAccount");
      ObjectNode meta = obj.putObject("metadata").put("name", sa).put("namespace", namespace);
      meta.set("labels", ownerLabels.deepCopy());
      serviceAccounts.add(obj);
    }
    return new Rbac(serviceAccounts, roles, roleBindings, clusterRoles, clusterRoleBindings);
  }

  /**
   * {@code base-hash}; the base is cut so the whole name fits in 63 characters. Deterministic in
   * its inputs.
   */
  static String generateName(String base, String hashInput) {
    String hash =
        safeEncode(Integer.toUnsignedString(fnv32a(hashInput.getBytes(StandardCharsets.UTF_8))));
    if (base.length() + hash.length() > MAX_NAME_LENGTH) {
      base = base.substring(0, MAX_NAME_LENGTH - hash.length() - 1);
    }
    return base + "-" + hash;
  }

  private static int fnv32a(byte[] data) {
    int hash = 0x811c9dc5;
    for (byte b : data) {
      hash ^= b & 0xff;
      hash *= 0x01000193;
    }
    return hash;
  }

  private static String safeEncode(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      out.append(ALPHANUMS.charAt(s.charAt(i) % ALPHANUMS.length()));
    }
    return out.toString();
  }

  private static JsonNode rules(JsonNode permission) {
    JsonNode rules = permission.get("rules");
    return rules != null && rules.isArray() ? rules.deepCopy() : JSON.arrayNode();
  }

  private static ObjectNode rbacObject(
      String kind, String name, String namespace, ObjectNode ownerLabels) {
    ObjectNode obj =
        JSON.objectNode().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", kind);
    ObjectNode meta = obj.putObject("metadata").put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    meta.set("labels", ownerLabels.deepCopy());
    return obj;
  }

  private static JsonNode binding(
      String kind,
      String roleKind,
      String name,
      String namespace,
      String sa,
      String saNamespace,
      ObjectNode ownerLabels) {
    ObjectNode obj = rbacObject(kind, name, namespace, ownerLabels);
    obj.putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", roleKind)
        .put("name", name);
    ArrayNode subjects = obj.putArray("subjects");
    subjects
        .addObject()
        .put("kind", "ServiceAccount")
        .put("name", sa)
        .put("namespace", saNamespace);
    return obj;
  }
}
