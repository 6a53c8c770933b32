package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The operator deployments' robustness. Sources: operator-framework/api GoodPracticesValidator
 * (containers without resource requests); Kubernetes "Resource Management for Pods and Containers"
 * and "Configure Liveness, Readiness and Startup Probes"; operator-sdk best practices (run more
 * than one replica with leader election for availability).
 */
final class WorkloadRules implements RuleFamily {

  static final String RESOURCES = "robustness/container-resources";
  static final String PROBES = "robustness/probes";
  static final String REPLICAS = "robustness/replicas";

  @Override
  public List<String> rules() {
    return List.of(RESOURCES, PROBES, REPLICAS);
  }

  @Override
  public void check(BundleView view, Findings out) {
    for (OperatorPods pod : OperatorPods.of(view)) {
      for (JsonNode c : pod.containers(false)) {
        String who = pod.object() + " container " + Json.text(c, "name");
        String missing = missingResources(c);
        if (!missing.isEmpty()) {
          out.add(
              RESOURCES,
              Category.ROBUSTNESS,
              Severity.ERROR,
              pod.object(),
              OperatorPods.containerPath(c, "resources"),
              who + ": no " + missing + " in " + OperatorPods.containerPath(c, "resources"));
        }
        for (String probe : List.of("livenessProbe", "readinessProbe")) {
          if (!c.path(probe).isObject()) {
            out.add(
                PROBES,
                Category.ROBUSTNESS,
                Severity.WARNING,
                pod.object(),
                OperatorPods.containerPath(c, probe),
                who + ": no " + probe);
          }
        }
      }
      JsonNode replicas = pod.deploymentSpec().path("replicas");
      if (!replicas.isInt() || replicas.intValue() < 2) {
        out.add(
            REPLICAS,
            Category.ROBUSTNESS,
            Severity.INFO,
            pod.object(),
            "spec.replicas",
            pod.object()
                + ": spec.replicas is "
                + (replicas.isMissingNode() ? "unset (1)" : replicas)
                + ": the operator stops reconciling while its only pod is rescheduled");
      }
    }
  }

  /** "requests.cpu, limits.memory"-style list of what is missing; empty when all four are set. */
  static String missingResources(JsonNode container) {
    StringBuilder sb = new StringBuilder();
    for (String kind : List.of("requests", "limits")) {
      for (String r : List.of("cpu", "memory")) {
        JsonNode v = container.path("resources").path(kind).path(r);
        if (v.isMissingNode() || v.isNull() || v.asText("").isEmpty()) {
          sb.append(sb.length() == 0 ? "" : ", ").append(kind).append('.').append(r);
        }
      }
    }
    return sb.toString();
  }
}
