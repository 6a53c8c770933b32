package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.BundleObject;
import io.olmstead.olmcore.fbc.FbcException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a resolved bundle into the ordered Kubernetes objects OLM would create for it: CRDs,
 * service accounts and RBAC from the CSV permissions and the operator group ({@link
 * OperatorGroupRbac}), the operator deployments (with the subscription config applied), then the
 * bundle's other objects. Pure: the input manifests are never modified.
 */
public final class InstallPlanner {
  /** Operator group name used by {@link #plan(Bundle, String, List, SubscriptionConfig)}. */
  public static final String DEFAULT_OPERATOR_GROUP = "olmstead";

  private static final String CSV_KIND = "ClusterServiceVersion";

  /** Plans with the default operator group name. */
  public InstallPlanResult plan(
      Bundle bundle, String namespace, List<String> targetNamespaces, SubscriptionConfig config) {
    return plan(bundle, namespace, DEFAULT_OPERATOR_GROUP, targetNamespaces, config);
  }

  /**
   * Plans {@code bundle} for installation in {@code namespace}, watching {@code targetNamespaces}
   * ({@code [""]} = all; empty: the bundle's default, AllNamespaces when its CSV supports it, else
   * its own namespace). Never throws: an undecodable bundle is an {@code InvalidBundle} failure.
   */
  public InstallPlanResult plan(
      Bundle bundle,
      String namespace,
      String operatorGroup,
      List<String> targetNamespaces,
      SubscriptionConfig config) {
    if (bundle == null) {
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_INVALID_BUNDLE, "no bundle given", null);
    }
    List<JsonNode> manifests = new ArrayList<>();
    try {
      for (BundleObject object : bundle.objects()) {
        manifests.add(object.manifest());
      }
    } catch (FbcException | RuntimeException e) {
      // RuntimeException too: whatever a decoder does, the caller gets a failure result
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_INVALID_BUNDLE,
          "bundle " + bundle.name() + " has an undecodable olm.bundle.object: " + e.getMessage(),
          null);
    }
    return planManifests(manifests, namespace, operatorGroup, targetNamespaces, config);
  }

  /** Plans from already decoded manifests (one of which must be the CSV). Never throws. */
  public InstallPlanResult planManifests(
      List<JsonNode> manifests,
      String namespace,
      String operatorGroup,
      List<String> targetNamespaces,
      SubscriptionConfig config) {
    try {
      return planChecked(
          manifests == null ? List.of() : manifests,
          namespace,
          operatorGroup,
          targetNamespaces,
          config);
    } catch (RuntimeException e) {
      // Defensive: a manifest shaped in a way no check foresaw must come back as a failure, not an
      // exception.
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_INVALID_INSTALL_STRATEGY,
          "install strategy invalid: " + e,
          null);
    }
  }

  private InstallPlanResult planChecked(
      List<JsonNode> manifests,
      String namespace,
      String operatorGroup,
      List<String> targetNamespaces,
      SubscriptionConfig config) {
    if (namespace == null || namespace.isEmpty()) {
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_UNSUPPORTED_OPERATOR_GROUP, "no operator namespace given", null);
    }
    List<String> targets =
        targetNamespaces == null
            ? List.of()
            : targetNamespaces.stream().map(t -> t == null ? "" : t).toList();
    SubscriptionConfig cfg = config == null ? SubscriptionConfig.empty() : config;
    String group = operatorGroup == null ? DEFAULT_OPERATOR_GROUP : operatorGroup;
    Optional<JsonNode> found =
        manifests.stream()
            .filter(m -> m != null && CSV_KIND.equals(m.path("kind").asText()))
            .findFirst();
    if (found.isEmpty()) {
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_INVALID_BUNDLE,
          "bundle contains no ClusterServiceVersion",
          null);
    }
    ObjectNode csv = (ObjectNode) found.get().deepCopy();
    String csvName = csv.path("metadata").path("name").asText("");
    DeploymentOverrides.object(csv, "metadata").put("namespace", namespace);
    if (targets.isEmpty()) {
      targets = InstallMode.defaultFor(csv).targets(namespace, targets);
    }

    Optional<InstallModes.Problem> modeProblem = InstallModes.check(csv, namespace, targets);
    if (modeProblem.isPresent()) {
      return InstallPlanResult.failure(
          modeProblem.get().reason(), modeProblem.get().message(), csv);
    }
    Optional<String> unsupported = SupportedKinds.unsupported(manifests);
    if (unsupported.isPresent()) {
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_UNSUPPORTED_RESOURCE, unsupported.get(), csv);
    }
    Optional<String> strategyProblem = InstallStrategy.validate(csv);
    if (strategyProblem.isPresent()) {
      return InstallPlanResult.failure(
          InstallPlanResult.REASON_INVALID_INSTALL_STRATEGY, strategyProblem.get(), csv);
    }
    JsonNode strategy = csv.path("spec").path("install").path("spec");
    ObjectNode ownerLabels =
        JsonNodeFactory.instance
            .objectNode()
            .put("olm.owner", csvName)
            .put("olm.owner.kind", CSV_KIND)
            .put("olm.owner.namespace", namespace);

    Ordered ordered = new Ordered();
    Set<String> bundleServiceAccounts = new HashSet<>();
    for (JsonNode manifest : manifests) {
      if (manifest == null || !manifest.isObject() || manifest == found.get()) {
        continue;
      }
      ObjectNode copy = manifest.deepCopy();
      Scope.setNamespace(copy, namespace);
      // only the planner asks for a serving certificate: a bundle's own Secret annotated for
      // another Service
      // would otherwise get that Service's key copied into it
      if (copy.path("metadata").path("annotations").isObject()) {
        ((ObjectNode) copy.path("metadata").path("annotations")).remove(CertPlan.SERVING_CERT_FOR);
      }
      if ("ServiceAccount".equals(copy.path("kind").asText())) {
        bundleServiceAccounts.add(copy.path("metadata").path("name").asText());
      }
      ordered.addBundleObject(copy);
    }
    RbacGenerator.Rbac rbac =
        RbacGenerator.generate(
            csvName,
            namespace,
            strategy.path("permissions"),
            strategy.path("clusterPermissions"),
            ownerLabels);
    // A service account the bundle ships itself (often with imagePullSecrets) wins over the
    // generated one.
    rbac.serviceAccounts().stream()
        .filter(sa -> !bundleServiceAccounts.contains(sa.path("metadata").path("name").asText()))
        .forEach(sa -> ordered.serviceAccounts.add(0, sa));
    ordered.roles.addAll(0, rbac.roles());
    ordered.roleBindings.addAll(0, rbac.roleBindings());
    ordered.clusterRoles.addAll(0, rbac.clusterRoles());
    ordered.clusterRoleBindings.addAll(0, rbac.clusterRoleBindings());
    OperatorGroupRbac.Added added = OperatorGroupRbac.plan(csv, csvName, namespace, targets, rbac);
    ordered.roles.addAll(added.roles());
    ordered.roleBindings.addAll(added.roleBindings());
    ordered.clusterRoles.addAll(added.clusterRoles());
    ordered.clusterRoleBindings.addAll(added.clusterRoleBindings());
    for (JsonNode spec : strategy.path("deployments")) {
      ObjectNode deployment = InstallStrategy.deployment(spec, namespace, ownerLabels);
      DeploymentOverrides.apply(deployment, cfg);
      DeploymentOverrides.injectOlmValues(deployment, csvName, namespace, group, targets);
      ordered.deployments.add(deployment);
    }
    WebhookPlan.Result webhooks =
        WebhookPlan.plan(csv, namespace, targets, ownerLabels, ordered.deployments, ordered.crds);
    if (webhooks.failed()) {
      return InstallPlanResult.failure(webhooks.reason(), webhooks.message(), csv);
    }
    ordered.others.addAll(webhooks.objects());
    return InstallPlanResult.success(ordered.all(), csv);
  }

  /** Buckets in apply order. */
  private static final class Ordered {
    final List<JsonNode> crds = new ArrayList<>();
    final List<JsonNode> serviceAccounts = new ArrayList<>();
    final List<JsonNode> roles = new ArrayList<>();
    final List<JsonNode> roleBindings = new ArrayList<>();
    final List<JsonNode> clusterRoles = new ArrayList<>();
    final List<JsonNode> clusterRoleBindings = new ArrayList<>();
    final List<JsonNode> deployments = new ArrayList<>();
    final List<JsonNode> others = new ArrayList<>();

    void addBundleObject(ObjectNode manifest) {
      switch (manifest.path("kind").asText()) {
        case "CustomResourceDefinition" -> crds.add(manifest);
        case "ServiceAccount" -> serviceAccounts.add(manifest);
        case "Role" -> roles.add(manifest);
        case "RoleBinding" -> roleBindings.add(manifest);
        case "ClusterRole" -> clusterRoles.add(manifest);
        case "ClusterRoleBinding" -> clusterRoleBindings.add(manifest);
        default -> others.add(manifest);
      }
    }

    List<JsonNode> all() {
      List<JsonNode> all = new ArrayList<>(crds);
      all.addAll(serviceAccounts);
      all.addAll(roles);
      all.addAll(roleBindings);
      all.addAll(clusterRoles);
      all.addAll(clusterRoleBindings);
      all.addAll(deployments);
      all.addAll(others);
      return all;
    }
  }
}
