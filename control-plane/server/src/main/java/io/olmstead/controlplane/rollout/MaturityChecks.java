package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.maturity.KubeVersions;
import io.olmstead.controlplane.maturity.MaturityPolicy;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Preflight findings the control plane adds to each cluster's verdict (pure): {@code
 * MaturityRequirement} for each way the target bundle's maturity report breaks the subscription's
 * {@code requirements.maturity} (every cluster), and {@code RemovedApi} for each {@code
 * portability/removed-api} finding whose Kubernetes version the cluster runs at or above (only
 * clusters that report their version). Both are errors: Block holds, Warn warns.
 */
final class MaturityChecks {
  static final String REQUIREMENT = "MaturityRequirement";
  static final String REMOVED_API = "RemovedApi";
  static final String REMOVED_RULE = KubeVersions.REMOVED_RULE;

  /** At most this many findings per cluster, as an agent's answer. */
  static final int MAX_FINDINGS = 32;

  private MaturityChecks() {}

  /**
   * The findings of each of {@code clusters} that has any; {@code kube}: each cluster's reported
   * version.
   */
  static Map<String, JsonArray> perCluster(
      JsonObject requirements,
      JsonObject report,
      Map<String, String> kube,
      Collection<String> clusters) {
    JsonArray common = new JsonArray();
    for (Object o : MaturityPolicy.violations(requirements, report)) {
      JsonObject v = (JsonObject) o;
      common.add(finding(REQUIREMENT, v.getString("field"), v.getString("message")));
    }
    Map<String, JsonArray> out = new HashMap<>();
    for (String cluster : clusters) {
      JsonArray findings = common.copy();
      for (JsonObject f : KubeVersions.removedFor(report, kube.get(cluster))) {
        findings.add(
            finding(
                REMOVED_API,
                f.getString("object"),
                f.getString("message")
                    + "; the cluster runs "
                    + "Kubernetes "
                    + kube.get(cluster)));
      }
      if (!findings.isEmpty()) {
        out.put(
            cluster,
            findings.size() <= MAX_FINDINGS
                ? findings
                : new JsonArray(findings.getList().subList(0, MAX_FINDINGS)));
      }
    }
    return out;
  }

  private static JsonObject finding(String code, String subject, String message) {
    JsonObject f =
        new JsonObject().put("code", code).put("severity", "Error").put("message", message);
    return subject == null ? f : f.put("subject", subject);
  }
}
