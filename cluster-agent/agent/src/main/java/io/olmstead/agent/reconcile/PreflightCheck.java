package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.Subset;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.apispec.protocol.PreflightRequest;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.installplan.InstallPlanResult;
import io.olmstead.olmcore.installplan.InstallPlanner;
import io.olmstead.olmcore.installplan.SubscriptionConfig;
import io.olmstead.olmcore.lifecycle.CrdSchemaRules;
import io.olmstead.olmcore.lifecycle.CrdUpgradeCheck;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import io.olmstead.olmcore.lifecycle.UpgradeDecision;
import io.olmstead.olmcore.lifecycle.UpgradeableCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Checks a target bundle of a subscription against this cluster as it is now, writing nothing:
 * install modes and the plan, the install requirements (as the install checks them: {@code
 * minKubeVersion}, native and required APIs, required CRDs) and APIs this Kubernetes no longer
 * serves, a namespace where another subscription owns the package or a CRD another subscription
 * owns, {@code Upgradeable} of the installed bundle, and for every CRD the bundle replaces: stored
 * versions kept, existing custom resources valid against the new schema, and the CRD schema change
 * rules as the subscription's {@code crdUpgradeSafety} says. Each problem is a named finding.
 */
final class PreflightCheck {
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String CRD_KIND = "CustomResourceDefinition";

  private final ResourceOperator resources;
  private final CatalogProvider catalogs;
  private final ClusterObserver observer;
  private final CrdSafety crdSafety;
  private final RequirementCheck requirements;
  private final Supplier<String> kubernetesVersion;
  private final InstallPlanner planner = new InstallPlanner();

  PreflightCheck(
      ResourceOperator resources, CatalogProvider catalogs, Supplier<String> kubernetesVersion) {
    this.resources = resources;
    this.catalogs = catalogs;
    this.observer = new ClusterObserver(resources);
    this.crdSafety = new CrdSafety(resources);
    this.requirements = new RequirementCheck(resources);
    this.kubernetesVersion = kubernetesVersion;
  }

  /**
   * The findings for {@code request}; {@code sub} is the cluster's desired subscription of that
   * name (null: none).
   */
  List<PreflightFinding> check(SubscriptionToReconcile sub, PreflightRequest request)
      throws ResourceException {
    List<PreflightFinding> out = new ArrayList<>();
    if (sub == null) {
      out.add(
          PreflightRules.finding(
              "SubscriptionNotPlaced",
              true,
              request.subscription(),
              "subscription " + request.subscription() + " is not placed on this cluster"));
      return out;
    }
    Optional<Catalog> catalog = catalogs.catalog(sub.catalog(), sub.catalogDigest());
    Optional<Bundle> bundle =
        catalog
            .flatMap(c -> c.pkg(sub.packageName()))
            .flatMap(
                p ->
                    p.bundles().stream()
                        .filter(
                            b ->
                                request.version().equals(b.versionText())
                                    || (request.bundle() != null
                                        && request.bundle().equals(b.name())))
                        .findFirst());
    if (bundle.isEmpty()) {
      out.add(
          PreflightRules.finding(
              catalog.isEmpty() ? "CatalogUnavailable" : "BundleNotFound",
              true,
              sub.catalog(),
              catalog.isEmpty()
                  ? "catalog " + sub.catalog() + " is not available to the agent yet"
                  : "no bundle of package "
                      + sub.packageName()
                      + " at version "
                      + request.version()));
      return out;
    }
    BundleContent content = catalogs.content(bundle.get());
    if (!content.isReady()) {
      out.add(
          PreflightRules.finding(
              "BundleUnavailable", true, bundle.get().name(), content.waiting().message()));
      return out;
    }
    InstallPlanResult plan =
        planner.plan(
            content.bundle(),
            sub.namespace(),
            sub.effectiveTargets(),
            SubscriptionConfig.fromJson(sub.config()));
    if (!plan.succeeded()) {
      out.add(
          PreflightRules.finding(
              plan.reason(), true, "namespace " + sub.namespace(), plan.message()));
      return out;
    }
    String kube = kubernetesVersion.get();
    for (RequirementStatus status :
        plan.csv().isPresent()
            ? requirements.statuses(plan.csv().get())
            : List.<RequirementStatus>of()) {
      PreflightRules.requirement(status).ifPresent(out::add);
    }
    for (JsonNode object : plan.objects()) {
      PreflightRules.removedApi(
              object.path("apiVersion").asText(),
              object.path("kind").asText(),
              object.path("metadata").path("name").asText(),
              kube)
          .ifPresent(out::add);
    }
    Map<String, ObservedSubscription> observed = observer.observe(sub.namespace());
    namespaceConflicts(sub, observed, out);
    upgradeable(observed.get(sub.name()), out);
    for (JsonNode crd : plan.objects()) {
      if (CRD_KIND.equals(crd.path("kind").asText())) {
        crd(sub, crd, out);
      }
    }
    return out;
  }

  private static void namespaceConflicts(
      SubscriptionToReconcile sub,
      Map<String, ObservedSubscription> observed,
      List<PreflightFinding> out) {
    observed.values().stream()
        .filter(o -> !o.name().equals(sub.name()) && o.dependencyOf().isEmpty())
        .filter(o -> o.current().map(b -> sub.packageName().equals(b.packageName())).orElse(false))
        .forEach(
            o ->
                out.add(
                    PreflightRules.finding(
                        "NamespaceConflict",
                        true,
                        "namespace " + sub.namespace(),
                        "package "
                            + sub.packageName()
                            + " in namespace "
                            + sub.namespace()
                            + " "
                            + WriteRules.OWNED_BY_ANOTHER)));
  }

  private void upgradeable(ObservedSubscription observed, List<PreflightFinding> out) {
    JsonNode condition =
        observed == null
            ? null
            : observed.installed().map(ObservedBundle::operatorCondition).orElse(null);
    if (condition == null) {
      return;
    }
    // as the installer's mirror would see it, without writing the mirror
    JsonNode spec = OperatorConditions.specConditions(condition);
    JsonNode view = condition;
    if (spec.isArray()) {
      ObjectNode copy = condition.deepCopy();
      copy.withObjectProperty("status").set("conditions", spec.deepCopy());
      view = copy;
    }
    UpgradeDecision decision = UpgradeableCheck.evaluate(view);
    if (!decision.allowed()) {
      out.add(
          PreflightRules.finding(
              "NotUpgradeable",
              true,
              condition.path("metadata").path("name").asText(),
              "operator is not upgradeable: " + decision.message()));
    }
  }

  private void crd(SubscriptionToReconcile sub, JsonNode crd, List<PreflightFinding> out)
      throws ResourceException {
    String name = crd.path("metadata").path("name").asText();
    Optional<JsonNode> found = resources.get(CRD_API, CRD_KIND, null, name);
    if (found.isEmpty()) {
      return;
    }
    JsonNode existing = found.get();
    String owner =
        existing.path("metadata").path("labels").path(ManagedLabels.SUBSCRIPTION).asText("");
    if (!owner.isEmpty() && !owner.equals(ManagedLabels.value(sub.name()))) {
      out.add(
          PreflightRules.finding(
              "CrdOwnedByOther",
              true,
              name,
              "CRD " + name + " belongs to another subscription (" + owner + ")"));
    }
    ObjectNode bare = crd.deepCopy();
    bare.remove("metadata");
    if (Subset.contains(existing, bare)) {
      return; // unchanged: nothing can be lost
    }
    for (String removal : CrdUpgradeCheck.storedVersionRemovals(existing, crd)) {
      out.add(PreflightRules.finding("StoredVersionRemoved", true, name, removal));
    }
    String invalid =
        CrdUpgradeCheck.invalidExistingResources(
            existing, crd, crdSafety.customResources(existing));
    if (invalid != null) {
      out.add(PreflightRules.finding("ExistingResourceInvalid", true, name, invalid));
    }
    PreflightRules.CrdUpgradeSafety safety =
        PreflightRules.CrdUpgradeSafety.parse(sub.crdUpgradeSafety());
    CrdSchemaRules.compare(existing, crd)
        .forEach(f -> PreflightRules.schemaFinding(f, name, safety).ifPresent(out::add));
  }
}
