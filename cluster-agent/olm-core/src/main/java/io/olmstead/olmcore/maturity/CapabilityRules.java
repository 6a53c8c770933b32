package io.olmstead.olmcore.maturity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The declared capability level (the {@code capabilities} annotation, Operator Capability Levels of
 * the Operator Framework: Basic Install, Seamless Upgrades, Full Lifecycle, Deep Insights, Auto
 * Pilot) against what the manifests evidence: level 1 an operator deployment; level 2 an upgrade
 * edge in a channel holding the bundle; level 3 probes and requests/limits on every operator
 * container. Levels 4 and 5 (metrics, auto-tuning) cannot be seen in manifests.
 */
final class CapabilityRules implements RuleFamily {

  static final String EVIDENCE = "lifecycle/capability-evidence";

  @Override
  public List<String> rules() {
    return List.of(EVIDENCE);
  }

  @Override
  public void check(BundleView view, Findings out) {
    String declared =
        view.csvMetadata() == null
            ? null
            : Json.text(view.csvMetadata().path("annotations"), "capabilities");
    int level = declared == null ? 0 : MetadataRules.LEVELS.indexOf(declared) + 1;
    if (level == 0) {
      return;
    }
    String csv = Json.describe(view.csv() == null ? view.csvMetadata() : view.csv());
    String gap = gap(view, level);
    if (gap != null) {
      out.add(
          EVIDENCE,
          Category.LIFECYCLE,
          Severity.WARNING,
          csv,
          "metadata.annotations.capabilities",
          csv + " declares '" + declared + "' but " + gap);
    }
  }

  /** The first missing evidence for a level up to {@code declared}, or null. */
  static String gap(BundleView view, int declared) {
    List<OperatorPods> pods = OperatorPods.of(view);
    if (pods.isEmpty()) {
      return "the install strategy has no deployment (Basic Install)";
    }
    if (declared >= 2 && Boolean.FALSE.equals(view.upgradeEdge())) {
      return "no channel holding it has an upgrade edge (Seamless Upgrades)";
    }
    if (declared >= 3) {
      for (OperatorPods pod : pods) {
        for (JsonNode c : pod.containers(false)) {
          if (!c.path("livenessProbe").isObject() || !c.path("readinessProbe").isObject()) {
            return pod.object()
                + " container "
                + Json.text(c, "name")
                + " has no liveness or readiness"
                + " probe (Full Lifecycle)";
          }
          if (!WorkloadRules.missingResources(c).isEmpty()) {
            return pod.object()
                + " container "
                + Json.text(c, "name")
                + " has no requests and limits"
                + " (Full Lifecycle)";
          }
        }
      }
    }
    return null;
  }

  /**
   * The highest level the manifests evidence (1..3), 0 when none; levels above 3 are not evidenced
   * here.
   */
  static int evidenced(BundleView view) {
    for (int level = 3; level >= 1; level--) {
      if (gap(view, level) == null && (level < 2 || Boolean.TRUE.equals(view.upgradeEdge()))) {
        return level;
      }
    }
    return 0;
  }
}
