package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.k8s.ServedApis;
import io.olmstead.agent.k8s.WorkloadStatus;
import io.olmstead.olmcore.fbc.Gvk;
import io.olmstead.olmcore.installplan.InstallPlanResult;
import io.olmstead.olmcore.installplan.SupportedKinds;
import io.olmstead.olmcore.lifecycle.CsvObservation;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvPhaseRules;
import io.olmstead.olmcore.lifecycle.CsvStatus;
import io.olmstead.olmcore.lifecycle.Requirements;
import io.olmstead.olmcore.lifecycle.Requirements.CrdState;
import io.olmstead.olmcore.lifecycle.Requirements.Facts;
import io.olmstead.olmcore.lifecycle.Requirements.Needs;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * olm-core's {@link Requirements} and {@link SupportedKinds} fed from the cluster: the server's
 * version, discovery and the required CRDs. One mechanism for the install (a bundle whose
 * requirements are unmet stays {@code Pending/RequirementsNotMet}, one with an object whose API is
 * not served fails naming it; nothing is written and every pass checks again) and for a rollout's
 * preflight.
 */
final class RequirementCheck {
  private final ResourceOperator resources;

  RequirementCheck(ResourceOperator resources) {
    this.resources = resources;
  }

  /** Every requirement of {@code csv} with its status as the cluster is now. */
  List<RequirementStatus> statuses(JsonNode csv) throws ResourceException {
    Needs needs = Requirements.needs(csv);
    ServedApis served = resources.served();
    Set<Gvk> apis = new LinkedHashSet<>();
    for (Gvk api : needs.apis()) {
      if (served.served(Requirements.apiVersion(api), api.kind())) {
        apis.add(api);
      }
    }
    Map<String, CrdState> crds = new LinkedHashMap<>();
    for (String name : needs.crds()) {
      resources
          .get(CrdWrites.CRD_API, CrdWrites.CRD_KIND, null, name)
          .ifPresent(crd -> crds.put(name, state(crd)));
    }
    String version = needs.serverVersion() ? served.serverVersion() : null;
    return Requirements.evaluate(csv, new Facts(version, apis, crds));
  }

  /**
   * The requirements checked (empty when not checked) and why the bundle may not be applied now, if
   * it may not.
   */
  record Verdict(List<RequirementStatus> statuses, Optional<CsvStatus> refusal) {
    static final Verdict NOT_CHECKED = new Verdict(List.of(), Optional.empty());
  }

  /**
   * For a bundle not yet installed ({@code before} none or Pending): its CSV's requirements with
   * their status, and why it may not be applied now: requirements unmet or a target namespace
   * (other than {@code namespace}) that does not exist ({@code Pending/RequirementsNotMet} naming
   * it), or an object whose API the cluster does not serve (Failed, naming the API, as OLM fails
   * the install plan). Not checked once installed.
   */
  Verdict check(InstallPlanResult plan, CsvPhase before, String namespace, List<String> targets)
      throws ResourceException {
    if (plan.csv().isEmpty() || (before != CsvPhase.NONE && before != CsvPhase.PENDING)) {
      return Verdict.NOT_CHECKED;
    }
    List<RequirementStatus> statuses = statuses(plan.csv().get());
    Optional<String> unmet = Requirements.unmet(statuses);
    List<String> missing = missingTargets(namespace, targets);
    if (!missing.isEmpty()) {
      // as on an API server, nothing can be written into a namespace that does not exist: wait for
      // it
      String message =
          "target namespace"
              + (missing.size() == 1 ? " " : "s ")
              + String.join(", ", missing)
              + (missing.size() == 1 ? " does" : " do")
              + " not exist";
      unmet = Optional.of(unmet.map(u -> u + "; " + message).orElse(message));
    }
    if (unmet.isPresent()) {
      return new Verdict(
          statuses,
          Optional.of(
              CsvPhaseRules.next(
                  CsvObservation.in(CsvPhase.PENDING).withUnmetRequirements(unmet.get()))));
    }
    for (Gvk api : SupportedKinds.toLookUp(plan.objects())) {
      if (!resources.served().served(Requirements.apiVersion(api), api.kind())) {
        return new Verdict(
            statuses,
            Optional.of(
                CsvPhaseRules.next(
                    CsvObservation.in(CsvPhase.PENDING)
                        .withApiRejection(SupportedKinds.notServed(api)))));
      }
    }
    return new Verdict(statuses, Optional.empty());
  }

  /**
   * The operator group's target namespaces, other than the install namespace (the agent creates
   * it), not found.
   */
  private List<String> missingTargets(String namespace, List<String> targets)
      throws ResourceException {
    List<String> missing = new ArrayList<>();
    for (String target : targets == null ? List.<String>of() : targets) {
      if (target != null
          && !target.isEmpty()
          && !target.equals(namespace)
          && resources.get("v1", "Namespace", null, target).isEmpty()) {
        missing.add(target);
      }
    }
    return missing;
  }

  private static CrdState state(JsonNode crd) {
    Set<String> versions = new LinkedHashSet<>();
    for (JsonNode v : crd.path("spec").path("versions")) {
      if (v.path("served").asBoolean(false)) {
        versions.add(v.path("name").asText());
      }
    }
    return new CrdState(versions, WorkloadStatus.established(crd));
  }
}
