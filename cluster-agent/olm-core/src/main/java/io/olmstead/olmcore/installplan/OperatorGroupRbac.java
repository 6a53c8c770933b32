package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The RBAC OLM's operator-group and OperatorCondition controllers add to a CSV's own Roles and
 * RoleBindings ({@code operatorgroup.go}, {@code operatorcondition_controller.go}): for
 * AllNamespaces the Roles lifted to ClusterRoles of the same name (plus reading namespaces) and the
 * RoleBindings to ClusterRoleBindings ({@code ensureSingletonRBAC}); for Single/MultiNamespace a
 * copy of each Role and RoleBinding in every target namespace other than the operator's ({@code
 * ensureTenantRBAC}); always the Role and RoleBinding named after the CSV that let its service
 * accounts read and update their own OperatorCondition; and the aggregated ClusterRoles of the
 * owned CRDs ({@link ProvidedApiClusterRoles}). Pure.
 */
final class OperatorGroupRbac {
  static final String COPIED_FROM = "olm.copiedFrom";
  static final String OLM_MANAGED = "olm.managed";
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final String RBAC_API = "rbac.authorization.k8s.io/v1";

  /** The objects to add, by kind. */
  record Added(
      List<JsonNode> roles,
      List<JsonNode> roleBindings,
      List<JsonNode> clusterRoles,
      List<JsonNode> clusterRoleBindings) {}

  private OperatorGroupRbac() {}

  /**
   * @param targets the operator group's target namespaces ({@code [""]}: all)
   * @param own the Roles and RoleBindings generated from the CSV's {@code permissions} in the
   *     operator namespace
   */
  static Added plan(
      JsonNode csv,
      String csvName,
      String namespace,
      List<String> targets,
      RbacGenerator.Rbac own) {
    List<JsonNode> roles = new ArrayList<>();
    List<JsonNode> roleBindings = new ArrayList<>();
    List<JsonNode> clusterRoles = new ArrayList<>();
    List<JsonNode> clusterRoleBindings = new ArrayList<>();
    if (targets.size() == 1 && targets.get(0).isEmpty()) {
      own.roles().forEach(role -> clusterRoles.add(lifted(role)));
      own.roleBindings().forEach(binding -> clusterRoleBindings.add(lifted(binding)));
    } else {
      for (String target : targets) {
        if (!target.isEmpty() && !target.equals(namespace)) {
          own.roles().forEach(role -> roles.add(tenantCopy(role, target, namespace)));
          own.roleBindings()
              .forEach(binding -> roleBindings.add(tenantCopy(binding, target, namespace)));
        }
      }
    }
    roles.add(operatorConditionRole(csvName, namespace));
    roleBindings.add(operatorConditionBinding(csvName, namespace, serviceAccounts(csv)));
    clusterRoles.addAll(ProvidedApiClusterRoles.forCsv(csv));
    return new Added(roles, roleBindings, clusterRoles, clusterRoleBindings);
  }

  /**
   * A Role as a ClusterRole (or a RoleBinding as a ClusterRoleBinding) of the same name and labels.
   */
  private static JsonNode lifted(JsonNode namespaced) {
    ObjectNode copy = namespaced.deepCopy();
    ((ObjectNode) copy.path("metadata")).remove("namespace");
    if ("Role".equals(copy.path("kind").asText())) {
      copy.put("kind", "ClusterRole");
      ArrayNode rules = copy.withArray("rules");
      ObjectNode namespaces = rules.addObject();
      namespaces.putArray("verbs").add("get").add("list").add("watch");
      namespaces.putArray("apiGroups").add("");
      namespaces.putArray("resources").add("namespaces");
    } else {
      copy.put("kind", "ClusterRoleBinding");
      ((ObjectNode) copy.path("roleRef")).put("kind", "ClusterRole");
    }
    return copy;
  }

  private static JsonNode tenantCopy(JsonNode namespaced, String target, String operatorNamespace) {
    ObjectNode copy = namespaced.deepCopy();
    ObjectNode meta = (ObjectNode) copy.path("metadata");
    meta.put("namespace", target);
    ObjectNode labels = meta.withObjectProperty("labels");
    labels.put("olm.owner.namespace", target);
    labels.put(COPIED_FROM, operatorNamespace);
    labels.put(OLM_MANAGED, "true");
    return copy;
  }

  private static JsonNode operatorConditionRole(String csvName, String namespace) {
    ObjectNode role = object("Role", csvName, namespace);
    ObjectNode rule = role.putArray("rules").addObject();
    rule.putArray("verbs").add("get").add("update").add("patch");
    rule.putArray("apiGroups").add("operators.coreos.com");
    rule.putArray("resources").add("operatorconditions");
    rule.putArray("resourceNames").add(csvName);
    return role;
  }

  private static JsonNode operatorConditionBinding(
      String csvName, String namespace, Set<String> serviceAccounts) {
    ObjectNode binding = object("RoleBinding", csvName, namespace);
    ArrayNode subjects = binding.putArray("subjects");
    serviceAccounts.forEach(
        sa ->
            subjects
                .addObject()
                .put("kind", "ServiceAccount")
                .put("name", sa)
                .put("namespace", namespace));
    binding
        .putObject("roleRef")
        .put("apiGroup", "rbac.authorization.k8s.io")
        .put("kind", "Role")
        .put("name", csvName);
    return binding;
  }

  /**
   * OLM's getServiceAccountNames: the accounts of clusterPermissions, then of permissions (here
   * without repeats).
   */
  private static Set<String> serviceAccounts(JsonNode csv) {
    Set<String> accounts = new LinkedHashSet<>();
    JsonNode strategy = csv.path("spec").path("install").path("spec");
    for (String field : List.of("clusterPermissions", "permissions")) {
      for (JsonNode permission : strategy.path(field)) {
        String sa = permission.path("serviceAccountName").asText("");
        if (!sa.isEmpty()) {
          accounts.add(sa);
        }
      }
    }
    return accounts;
  }

  private static ObjectNode object(String kind, String name, String namespace) {
    ObjectNode obj = JSON.objectNode().put("apiVersion", RBAC_API).put("kind", kind);
    ObjectNode meta = obj.putObject("metadata").put("name", name).put("namespace", namespace);
    meta.putObject("labels").put(OLM_MANAGED, "true");
    return obj;
  }
}
