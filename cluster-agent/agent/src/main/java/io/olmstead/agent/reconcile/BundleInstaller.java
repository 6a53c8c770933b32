package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.olmstead.agent.certs.CertIssuer;
import io.olmstead.agent.certs.ServingCertificates;
import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.WorkloadStatus;
import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.installplan.InstallPlanResult;
import io.olmstead.olmcore.installplan.InstallPlanner;
import io.olmstead.olmcore.installplan.ProvidedApiClusterRoles;
import io.olmstead.olmcore.installplan.SubscriptionConfig;
import io.olmstead.olmcore.lifecycle.CsvObservation;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvPhaseRules;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import io.olmstead.olmcore.lifecycle.DeploymentState;
import io.olmstead.olmcore.lifecycle.SharedCrdRule;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Drives one bundle one step: olm-core plans its objects and decides its phase; this class does the
 * I/O in OLM's order (CRD safety check, OperatorCondition, CRDs until Established, then the rest)
 * and records the phase on the bundle's OperatorCondition so a restarted agent picks up where it
 * stopped.
 */
final class BundleInstaller {
  private final ResourceOperator resources;
  private final InstallPlanner planner = new InstallPlanner();
  private final Cleanup cleanup;
  private final RestoreBackoff backoff = new RestoreBackoff();
  private final CrdSafety crdSafety;
  private final CrdWrites crdWrites;
  private final RequirementCheck requirements;
  private final SchemaRuleGate schemaRules;
  private final ServingCertificates servingCerts;
  private final StaleRbac staleRbac;
  private final Function<Bundle, BundleContent> contents;

  BundleInstaller(
      ResourceOperator resources, Cleanup cleanup, Function<Bundle, BundleContent> contents) {
    this.resources = resources;
    this.cleanup = cleanup;
    this.crdSafety = new CrdSafety(resources);
    this.crdWrites = new CrdWrites(resources, crdSafety);
    this.requirements = new RequirementCheck(resources);
    this.schemaRules = new SchemaRuleGate(crdSafety);
    this.staleRbac = new StaleRbac(resources);
    this.contents = contents;
    this.servingCerts = new ServingCertificates(resources, new CertIssuer(), Clock.systemUTC());
  }

  /**
   * One step for {@code target}; {@code progress} receives intermediate phases (InstallReady) as
   * they happen. {@code others} are the cluster's other live subscriptions by label value: objects
   * they own are never written.
   */
  DriveResult drive(InstallTarget target, Map<String, String> others, Consumer<CsvStatus> progress)
      throws ResourceException {
    SubscriptionToReconcile sub = target.subscription();
    String ns = sub.namespace();
    CsvPhase before = target.previous() == null ? CsvPhase.NONE : target.previous().phase();
    // every write once the bundle was applied restores drift (InstallReady: a restore already sent
    // it back there)
    boolean restoring = wasApplied(before) || before == CsvPhase.INSTALL_READY;
    WriteRules rules = new WriteRules(sub.name(), others, restoring ? backoff : null);
    // a bundle that only names an image installs from the objects the control plane unpacked from
    // it
    BundleContent content = contents.apply(target.bundle());
    if (!content.isReady()) {
      return new DriveResult(content.waiting(), List.of(), false);
    }
    InstallPlanResult plan =
        planner.plan(
            content.bundle(),
            ns,
            sub.effectiveTargets(),
            SubscriptionConfig.fromJson(sub.config()));
    if (!plan.succeeded()) {
      return new DriveResult(CsvPhaseRules.next(planFailure(before, plan)), List.of(), false);
    }
    RequirementCheck.Verdict checked = requirements.check(plan, before, ns, sub.effectiveTargets());
    if (checked.refusal().isPresent()) {
      // nothing written: a later pass checks again
      return new DriveResult(checked.refusal().get(), List.of(), false)
          .withCsv(CsvDetails.requirementsOnly(checked.statuses()));
    }
    // webhook serving certificates: kept from the cluster's Secrets while valid, else issued here
    // (keys stay in-cluster)
    ServingCertificates.Completed completed =
        servingCerts.complete(stamp(plan.objects(), sub, target.bundle().name()), ns);
    CsvDetails csv = CsvDetails.of(plan.csv(), completed.certificates(), checked.statuses());
    return write(target, completed.objects(), before, restoring, rules, progress).withCsv(csv);
  }

  /** Writes the completed {@code objects} in OLM's order and says the phase they reached. */
  private DriveResult write(
      InstallTarget target,
      List<JsonNode> objects,
      CsvPhase before,
      boolean restoring,
      WriteRules rules,
      Consumer<CsvStatus> progress)
      throws ResourceException {
    SubscriptionToReconcile sub = target.subscription();
    String ns = sub.namespace();
    SharedCrdRule.Writer writer = CrdWrites.writer(target);
    List<JsonNode> crds =
        CrdWrites.recorded(objects.stream().filter(BundleInstaller::isCrd).toList(), writer);
    List<JsonNode> written =
        crdWrites.written(crds, writer); // the others are a newer install's to keep
    Optional<String> unsafe = crdSafety.upgradeProblem(written);
    if (unsafe.isPresent()) {
      // Refused before anything is written: the installed bundle keeps running untouched.
      return new DriveResult(
          CsvPhaseRules.next(CsvObservation.in(before).withApiRejection(unsafe.get())),
          List.of(),
          false);
    }
    Optional<CsvStatus> refused = schemaRules.review(sub, target.bundle().name(), written);
    if (refused.isPresent()) {
      return new DriveResult(refused.get(), List.of(), false);
    }
    List<ResourceKinds.Kind> extraKinds = extraKinds(objects);
    JsonNode oc;
    try {
      oc =
          applyOperatorCondition(
              target,
              objects,
              extraKinds,
              before == CsvPhase.NONE ? CsvPhase.PENDING : before,
              rules);
    } catch (ResourceException e) {
      if (rules.conflict() == null) {
        throw e;
      }
      return DriveResult.conflict(rules.conflict());
    }
    List<ApplyOutcome> changed = new ArrayList<>();
    String rejection = crdWrites.apply(crds, writer, rules.gate(), changed);
    if (rejection == null) {
      List<String> waiting = crdSafety.notEstablished(crds);
      if (!waiting.isEmpty()) {
        CsvStatus pending =
            CsvPhaseRules.next(
                CsvObservation.in(phaseForRules(before))
                    .withUnmetRequirements(
                        "CustomResourceDefinitions not yet established: "
                            + String.join(", ", waiting)));
        // A deleted CRD restored on a Succeeded install is drift too, reported now: the next pass
        // no longer writes it.
        return finish(
            target, oc, extraKinds, objects, pending, restoring ? writes(changed) : List.of());
      }
      mirrorConditions(oc);
      if (before == CsvPhase.NONE || before == CsvPhase.PENDING) {
        progress.accept(
            CsvPhaseRules.next(CsvObservation.in(CsvPhase.PENDING).withObjectsMissing()));
      }
      rejection =
          applyAll(objects.stream().filter(o -> !isCrd(o)).toList(), changed, rules, writer);
      if (rejection == null
          && rules.conflict() == null
          && changed.stream().anyMatch(ApplyOutcome::changed)) {
        staleRbac.prune(
            sub,
            target.bundle().name(),
            objects); // e.g. tenant roles of a target no longer watched
      }
    }
    if (rules.conflict() != null) {
      return DriveResult.conflict(rules.conflict());
    }
    boolean drifted =
        before == CsvPhase.SUCCEEDED && changed.stream().anyMatch(ApplyOutcome::changed);
    CsvObservation observation = CsvObservation.in(phaseForRules(before));
    if (rejection != null) {
      observation = observation.withApiRejection(rejection);
    } else if (drifted) {
      observation = observation.withObjectsMissing();
    } else {
      observation =
          observation.withApplied(deploymentStates(objects, ns).toArray(DeploymentState[]::new));
    }
    CsvStatus status = CsvPhaseRules.next(observation);
    // Also drift when a pass that ran while an object was being deleted already moved the bundle on
    // (the object missing looked like an unhealthy component), and in the pass after a restore
    // (InstallReady): an object changed while the restore ran is put back and reported then.
    boolean restored = restoring && !writes(changed).isEmpty();
    return finish(target, oc, extraKinds, objects, status, restored ? writes(changed) : List.of());
  }

  /**
   * The {@code CrdSchemaWarnings} condition of a {@code Warn} subscription whose bundle had
   * findings, if any.
   */
  Optional<SubscriptionStatus.StatusCondition> schemaWarnings(String subscription, String bundle) {
    return schemaRules.warnings(subscription, bundle);
  }

  /**
   * Phases in which every object of the bundle had been written already: a write now restores
   * drift.
   */
  private static boolean wasApplied(CsvPhase before) {
    return before == CsvPhase.SUCCEEDED
        || before == CsvPhase.INSTALLING
        || before == CsvPhase.FAILED;
  }

  /** Restores written, and ones held back by the backoff (reported too). */
  private static List<ApplyOutcome> writes(List<ApplyOutcome> outcomes) {
    return outcomes.stream()
        .filter(o -> o.changed() || o.result() == ApplyOutcome.Result.DEFERRED)
        .toList();
  }

  /**
   * olm-core's CRD safety verdict on installing {@code bundle} for {@code sub} over the cluster's
   * CRDs as they are now, without writing anything; empty when safe or when the bundle cannot be
   * planned (driving it reports that).
   */
  Optional<String> crdProblem(Bundle bundle, SubscriptionToReconcile sub) throws ResourceException {
    BundleContent content = contents.apply(bundle);
    if (!content.isReady()) {
      return Optional.empty();
    }
    InstallPlanResult plan =
        planner.plan(
            content.bundle(),
            sub.namespace(),
            sub.effectiveTargets(),
            SubscriptionConfig.fromJson(sub.config()));
    if (!plan.succeeded()) {
      return Optional.empty();
    }
    return crdSafety.upgradeProblem(
        stamp(plan.objects(), sub, bundle.name()).stream().filter(BundleInstaller::isCrd).toList());
  }

  private DriveResult finish(
      InstallTarget target,
      JsonNode oc,
      List<ResourceKinds.Kind> kinds,
      List<JsonNode> objects,
      CsvStatus status,
      List<ApplyOutcome> restored)
      throws ResourceException {
    if (!status
        .phase()
        .wireName()
        .equals(
            oc.path("metadata")
                .path("annotations")
                .path(ManagedLabels.PHASE_ANNOTATION)
                .asText())) {
      resources.apply(operatorCondition(target, objects, kinds, status.phase()));
    }
    CsvPhase before = target.previous() == null ? CsvPhase.NONE : target.previous().phase();
    if (status.phase() == CsvPhase.SUCCEEDED
        && (before != CsvPhase.SUCCEEDED || target.replaces() != null)) {
      // Only now may the replaced bundle go (OLM: Replacing -> Deleting after the new CSV
      // Succeeded).
      Set<ResourceKinds.Kind> sweep = new LinkedHashSet<>(kinds);
      if (target.replaces() != null) {
        sweep.addAll(target.replaces().kinds());
      }
      cleanup.sweepOtherBundles(
          target.subscription().name(),
          target.subscription().namespace(),
          target.bundle().name(),
          List.copyOf(sweep));
    }
    return new DriveResult(status, restored, true);
  }

  private JsonNode applyOperatorCondition(
      InstallTarget target,
      List<JsonNode> objects,
      List<ResourceKinds.Kind> kinds,
      CsvPhase phase,
      WriteRules rules)
      throws ResourceException {
    ObjectNode desired = operatorCondition(target, objects, kinds, phase);
    resources.apply(desired, rules.ownership());
    return resources
        .get(
            OperatorConditions.API_VERSION,
            OperatorConditions.KIND,
            target.subscription().namespace(),
            target.bundle().name())
        .orElse(desired);
  }

  private ObjectNode operatorCondition(
      InstallTarget target,
      List<JsonNode> objects,
      List<ResourceKinds.Kind> kinds,
      CsvPhase phase) {
    SubscriptionToReconcile sub = target.subscription();
    Map<String, String> labels =
        new LinkedHashMap<>(ManagedLabels.of(sub.name(), target.bundle().name(), sub.namespace()));
    if (target.dependencyOf() != null) {
      labels.put(ManagedLabels.DEPENDENCY_OF, ManagedLabels.value(target.dependencyOf()));
    }
    Map<String, String> annotations =
        ObservedBundle.annotations(
            sub.name(),
            phase,
            target.bundle().packageName(),
            sub.catalog(),
            target.channel(),
            target.bundle().versionText(),
            sub.deleteCrdsOnRemoval(),
            kinds,
            namesOf(objects, "CustomResourceDefinition"));
    return OperatorConditions.forBundle(
        target.bundle().name(),
        sub.namespace(),
        labels,
        annotations,
        namesOf(objects, "Deployment"),
        namesOf(objects, "ServiceAccount"));
  }

  /**
   * OLM's OperatorCondition controller copies what the operator wrote to spec.conditions into
   * status; returns the object as it now stands (the gate reads status).
   */
  JsonNode mirrorConditions(JsonNode oc) throws ResourceException {
    JsonNode spec = OperatorConditions.specConditions(oc);
    if (spec.isArray() && !spec.equals(oc.path("status").path("conditions"))) {
      ObjectNode copy = oc.deepCopy();
      copy.withObjectProperty("status").set("conditions", spec.deepCopy());
      resources.updateStatus(copy);
      return copy;
    }
    return oc;
  }

  private String applyAll(
      List<JsonNode> objects,
      List<ApplyOutcome> changed,
      WriteRules rules,
      SharedCrdRule.Writer writer)
      throws ResourceException {
    for (JsonNode object : objects) {
      try {
        // the aggregated ClusterRoles of a CRD are shared with it: written by the install that
        // writes the CRD
        changed.add(
            ProvidedApiClusterRoles.isProvidedApiRole(object)
                ? crdWrites.applyShared(object, writer, rules.gate())
                : resources.apply(object, rules.ownership(), rules.gate()));
      } catch (ResourceException e) {
        if (!e.rejected()) {
          throw e; // unreachable or overloaded: retry the whole pass later
        }
        return e.getMessage();
      }
    }
    return null;
  }

  private List<DeploymentState> deploymentStates(List<JsonNode> objects, String ns)
      throws ResourceException {
    List<DeploymentState> states = new ArrayList<>();
    for (String name : namesOf(objects, "Deployment")) {
      states.add(
          WorkloadStatus.deployment(
              name, resources.get("apps/v1", "Deployment", ns, name).orElse(null)));
    }
    return states;
  }

  /**
   * Labels every object with its subscription and bundle (the ownership the cleanup selects by).
   * CRDs and their aggregated ClusterRoles are shared by every subscription of their operator
   * across namespaces, so they only carry the managed-by label: owner labels on them would flip
   * between subscriptions on every pass.
   */
  static List<JsonNode> stamp(List<JsonNode> objects, SubscriptionToReconcile sub, String bundle) {
    Map<String, String> labels = ManagedLabels.of(sub.name(), bundle, sub.namespace());
    Map<String, String> crdLabels =
        Map.of(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE);
    List<JsonNode> out = new ArrayList<>(objects.size());
    for (JsonNode object : objects) {
      ObjectNode copy = object.deepCopy();
      ObjectNode meta = copy.withObjectProperty("metadata");
      boolean shared = isCrd(object) || ProvidedApiClusterRoles.isProvidedApiRole(object);
      (shared ? crdLabels : labels).forEach(meta.withObjectProperty("labels")::put);
      out.add(copy);
    }
    return out;
  }

  /**
   * Kinds the plan holds beyond the ones every sweep covers (recorded so removal finds them after a
   * restart).
   */
  static List<ResourceKinds.Kind> extraKinds(List<JsonNode> objects) {
    Set<ResourceKinds.Kind> kinds = new LinkedHashSet<>();
    for (JsonNode o : objects) {
      ResourceKinds.Kind kind =
          new ResourceKinds.Kind(o.path("apiVersion").asText(), o.path("kind").asText());
      if (!ResourceKinds.COMMON.contains(kind) && !isCrd(o)) {
        kinds.add(kind);
      }
    }
    return List.copyOf(kinds);
  }

  private static CsvObservation planFailure(CsvPhase before, InstallPlanResult plan) {
    CsvObservation o = CsvObservation.in(before);
    return switch (plan.reason()) {
      case InstallPlanResult.REASON_UNSUPPORTED_OPERATOR_GROUP ->
          o.withUnsupportedOperatorGroup(plan.message());
      case InstallPlanResult.REASON_INVALID_INSTALL_MODES ->
          o.withInvalidInstallModes(plan.message());
      case InstallPlanResult.REASON_UNSUPPORTED_RESOURCE -> o.withApiRejection(plan.message());
      default -> o.withInvalidInstallStrategy(plan.message());
    };
  }

  /** Pending is where olm-core's install rules start; a bundle never seen is Pending too. */
  private static CsvPhase phaseForRules(CsvPhase before) {
    return before == CsvPhase.NONE ? CsvPhase.PENDING : before;
  }

  private static List<String> namesOf(List<JsonNode> objects, String kind) {
    return objects.stream()
        .filter(o -> kind.equals(o.path("kind").asText()))
        .map(o -> o.path("metadata").path("name").asText())
        .distinct()
        .toList();
  }

  static boolean isCrd(JsonNode o) {
    return "CustomResourceDefinition".equals(o.path("kind").asText());
  }
}
