package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;

/**
 * RBAC the CSV asks for ({@code permissions}, {@code clusterPermissions}) and Role/ClusterRole
 * objects in the bundle. Sources: Kubernetes "Role Based Access Control Good Practices" (least
 * privilege, no wildcards, escalate/bind/ impersonate, listing secrets, CRD creation); CIS
 * Kubernetes Benchmark 5.1.2 (secrets) and 5.1.3 (wildcards).
 */
final class RbacRules implements RuleFamily {

  static final String WILDCARD = "security/rbac-wildcard";
  static final String ESCALATION = "security/rbac-escalate-bind-impersonate";
  static final String CLUSTER_SECRETS = "security/cluster-wide-secrets";
  static final String CRD_CREATE = "security/rbac-creates-crds";
  static final String WIDER_THAN_INSTALL_MODES = "security/cluster-permissions-install-modes";
  static final String TOO_MANY = "security/rbac-too-many-rules";

  /**
   * Rules beyond this many are refused (one finding), so a hostile bundle cannot make a report
   * expensive.
   */
  static final int MAX_RULES = 5_000;

  private static final Set<String> NAMESPACED =
      Set.of(
          "pods",
          "services",
          "endpoints",
          "configmaps",
          "secrets",
          "persistentvolumeclaims",
          "events",
          "serviceaccounts",
          "deployments",
          "statefulsets",
          "daemonsets",
          "replicasets",
          "jobs",
          "cronjobs",
          "roles",
          "rolebindings",
          "ingresses",
          "networkpolicies",
          "poddisruptionbudgets",
          "leases");

  @Override
  public List<String> rules() {
    return List.of(
        WILDCARD, ESCALATION, CLUSTER_SECRETS, CRD_CREATE, WIDER_THAN_INSTALL_MODES, TOO_MANY);
  }

  @Override
  public void check(BundleView view, Findings out) {
    int[] seen = {0};
    if (view.csv() != null) {
      JsonNode spec = view.csv().path("spec").path("install").path("spec");
      String csv = Json.describe(view.csv());
      boolean allNamespaces = InstallModesRead.supports(view.csvMetadata(), "AllNamespaces");
      for (String kind : List.of("permissions", "clusterPermissions")) {
        for (JsonNode perm : Json.array(spec, kind)) {
          String sa = Json.text(perm, "serviceAccountName");
          String at = "spec.install.spec." + kind + "[" + (sa == null ? "?" : sa) + "]";
          if (!checkRules(
              Json.array(perm, "rules"),
              csv,
              at,
              kind.equals("clusterPermissions"),
              !allNamespaces && kind.equals("clusterPermissions"),
              seen,
              out)) {
            return;
          }
        }
      }
    }
    for (JsonNode o : view.objects()) {
      String kind = Json.text(o, "kind");
      if ("Role".equals(kind) || "ClusterRole".equals(kind)) {
        if (!checkRules(
            Json.array(o, "rules"),
            Json.describe(o),
            "",
            "ClusterRole".equals(kind),
            false,
            seen,
            out)) {
          return;
        }
      }
    }
  }

  /** False when the rule budget ran out (a refusal finding was added). */
  private static boolean checkRules(
      List<JsonNode> rules,
      String object,
      String at,
      boolean clusterWide,
      boolean installModesNarrow,
      int[] seen,
      Findings out) {
    for (int i = 0; i < rules.size(); i++) {
      if (++seen[0] > MAX_RULES) {
        out.add(
            TOO_MANY,
            Category.SECURITY,
            Severity.ERROR,
            object,
            at,
            "more than " + MAX_RULES + " RBAC rules: the rest were not checked");
        return false;
      }
      JsonNode r = rules.get(i);
      String field = (at.isEmpty() ? "" : at + ".") + "rules[" + i + "]";
      List<String> groups = Json.strings(r, "apiGroups");
      List<String> resources = Json.strings(r, "resources");
      List<String> verbs = Json.strings(r, "verbs");
      for (String f : List.of("apiGroups", "resources", "verbs")) {
        if (Json.strings(r, f).contains("*")) {
          out.add(
              WILDCARD,
              Category.SECURITY,
              Severity.ERROR,
              object,
              field + "." + f,
              object + " " + field + " grants '*' in " + f);
        }
      }
      for (String v : List.of("escalate", "bind", "impersonate")) {
        if (verbs.contains(v)) {
          out.add(
              ESCALATION,
              Category.SECURITY,
              Severity.ERROR,
              object,
              field + ".verbs",
              object
                  + " "
                  + field
                  + " grants '"
                  + v
                  + "', which lets the operator gain more privileges");
        }
      }
      boolean core = groups.contains("") || groups.contains("*");
      boolean reads =
          verbs.contains("*")
              || verbs.contains("get")
              || verbs.contains("list")
              || verbs.contains("watch");
      if (clusterWide
          && core
          && reads
          && (resources.contains("secrets") || resources.contains("*"))) {
        out.add(
            CLUSTER_SECRETS,
            Category.SECURITY,
            Severity.WARNING,
            object,
            field,
            object + " " + field + " reads Secrets in every namespace");
      }
      boolean crdGroup = groups.contains("apiextensions.k8s.io") || groups.contains("*");
      boolean writes =
          verbs.contains("*")
              || verbs.contains("create")
              || verbs.contains("update")
              || verbs.contains("patch");
      if (crdGroup
          && writes
          && (resources.contains("customresourcedefinitions") || resources.contains("*"))) {
        out.add(
            CRD_CREATE,
            Category.SECURITY,
            Severity.WARNING,
            object,
            field,
            object
                + " "
                + field
                + " may create or change CustomResourceDefinitions (OLM installs them)");
      }
      if (installModesNarrow) {
        for (String res : resources) {
          if (NAMESPACED.contains(res)) {
            out.add(
                WIDER_THAN_INSTALL_MODES,
                Category.SECURITY,
                Severity.WARNING,
                object,
                field,
                object
                    + " "
                    + field
                    + " grants namespaced '"
                    + res
                    + "' cluster-wide although AllNamespaces is not a supported install mode");
            break;
          }
        }
      }
    }
    return true;
  }
}
