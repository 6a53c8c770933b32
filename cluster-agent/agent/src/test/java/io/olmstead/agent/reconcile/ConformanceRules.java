package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.FbcException;
import java.util.ArrayList;
import java.util.List;

/**
 * OLM's rules for what a CSV installed in one install mode puts on the cluster, written from the
 * CSV alone (not from olm-core's planner, which the conformance suite checks): pure, read by {@link
 * OlmConformanceIT}.
 */
final class ConformanceRules {
  static final String OPERATOR_NAMESPACE = "operators";
  static final List<String> OTHER_NAMESPACES = List.of("team-a", "team-b");

  /** OLM's install modes, with the targets the suite gives each. */
  enum Mode {
    AllNamespaces,
    OwnNamespace,
    SingleNamespace,
    MultiNamespace;

    List<String> targets() {
      return switch (this) {
        case AllNamespaces -> List.of("");
        case OwnNamespace -> List.of(OPERATOR_NAMESPACE);
        case SingleNamespace -> OTHER_NAMESPACES.subList(0, 1);
        case MultiNamespace -> OTHER_NAMESPACES;
      };
    }

    /** The pod annotation {@code olm.targetNamespaces} OLM writes. */
    String annotation() {
      return String.join(",", targets());
    }

    /** Namespaces other than the operator's that get tenant copies of its Roles. */
    List<String> tenants() {
      return this == AllNamespaces || this == OwnNamespace ? List.of() : targets();
    }
  }

  private ConformanceRules() {}

  static JsonNode csv(Bundle bundle) {
    try {
      for (BundleObject object : bundle.objects()) {
        if ("ClusterServiceVersion".equals(object.kind())) {
          return object.manifest();
        }
      }
    } catch (FbcException e) {
      throw new IllegalStateException(bundle.name() + ": " + e.getMessage(), e);
    }
    throw new IllegalStateException(bundle.name() + " has no CSV");
  }

  static List<Mode> supported(JsonNode csv) {
    List<Mode> modes = new ArrayList<>();
    for (Mode mode : Mode.values()) {
      for (JsonNode m : csv.path("spec").path("installModes")) {
        if (mode.name().equals(m.path("type").asText()) && m.path("supported").asBoolean()) {
          modes.add(mode);
        }
      }
    }
    return modes;
  }

  /**
   * {@code spec.install.spec.permissions}: one Role and RoleBinding per entry in the operator
   * namespace.
   */
  static List<JsonNode> permissions(JsonNode csv) {
    List<JsonNode> out = new ArrayList<>();
    csv.path("spec").path("install").path("spec").path("permissions").forEach(out::add);
    return out;
  }

  /**
   * A lifted ClusterRole's rules: the Role's plus get/list/watch on namespaces ({@code
   * ensureSingletonRBAC}).
   */
  static JsonNode liftedRules(JsonNode rules) {
    ArrayNode lifted = rules.deepCopy();
    ObjectNode namespaces = lifted.addObject();
    namespaces.putArray("verbs").add("get").add("list").add("watch");
    namespaces.putArray("apiGroups").add("");
    namespaces.putArray("resources").add("namespaces");
    return lifted;
  }

  /**
   * {@code <crd>-<version>-admin|edit|view|crdview} for each owned CRD version ({@code
   * ensureClusterRolesForCSV}).
   */
  static List<String> aggregatedRoles(JsonNode csv) {
    List<String> names = new ArrayList<>();
    for (JsonNode owned : csv.path("spec").path("customresourcedefinitions").path("owned")) {
      for (String suffix : List.of("admin", "edit", "view", "crdview")) {
        names.add(
            owned.path("name").asText() + "-" + owned.path("version").asText() + "-" + suffix);
      }
    }
    return names.stream().distinct().toList();
  }

  /**
   * The webhook definitions of {@code type} (ValidatingAdmissionWebhook, MutatingAdmissionWebhook,
   * ConversionWebhook).
   */
  static List<JsonNode> webhooks(JsonNode csv, String type) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode w : csv.path("spec").path("webhookdefinitions")) {
      if (type.equals(w.path("type").asText())) {
        out.add(w);
      }
    }
    return out;
  }
}
