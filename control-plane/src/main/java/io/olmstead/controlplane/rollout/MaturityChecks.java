package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.maturity.MaturityPolicy;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Preflight findings the control plane adds to each cluster's verdict (pure): {@code MaturityRequirement} for each
 * way the target bundle's maturity report breaks the subscription's {@code requirements.maturity} (every cluster),
 * and {@code RemovedApi} for each {@code portability/removed-api} finding whose Kubernetes version the cluster runs
 * at or above (only clusters that report their version). Both are errors: Block holds, Warn warns.
 */
final class MaturityChecks {
  static final String REQUIREMENT = "MaturityRequirement";
  static final String REMOVED_API = "RemovedApi";
  static final String REMOVED_RULE = "portability/removed-api";
  /** At most this many findings per cluster, as an agent's answer. */
  static final int MAX_FINDINGS = 32;
  private static final Pattern MINOR = Pattern.compile("^v?(\\d{1,4})\\.(\\d{1,4})");

  private MaturityChecks() {
  }

  /** The findings of each of {@code clusters} that has any; {@code kube}: each cluster's reported version. */
  static Map<String, JsonArray> perCluster(JsonObject requirements, JsonObject report, Map<String, String> kube,
      Collection<String> clusters) {
    JsonArray common = new JsonArray();
    for (Object o : MaturityPolicy.violations(requirements, report)) {
      JsonObject v = (JsonObject) o;
      common.add(finding(REQUIREMENT, v.getString("field"), v.getString("message")));
    }
    Map<String, JsonArray> out = new HashMap<>();
    for (String cluster : clusters) {
      JsonArray findings = common.copy();
      Optional<int[]> runs = minor(kube.get(cluster));
      for (Object o : report.getJsonArray("findings", new JsonArray())) {
        JsonObject f = (JsonObject) o;
        Optional<int[]> removedIn = minor(f.getString("removedIn"));
        if (REMOVED_RULE.equals(f.getString("rule")) && runs.isPresent() && removedIn.isPresent()
            && compare(runs.get(), removedIn.get()) >= 0) {
          findings.add(finding(REMOVED_API, f.getString("object"), f.getString("message") + "; the cluster runs "
              + "Kubernetes " + kube.get(cluster)));
        }
      }
      if (!findings.isEmpty()) {
        out.put(cluster, findings.size() <= MAX_FINDINGS ? findings
            : new JsonArray(findings.getList().subList(0, MAX_FINDINGS)));
      }
    }
    return out;
  }

  /** {@code [major, minor]} of a Kubernetes version as clusters report it ({@code v1.29.3+k3s1}, {@code 1.25}). */
  static Optional<int[]> minor(String version) {
    if (version == null) {
      return Optional.empty();
    }
    Matcher m = MINOR.matcher(version.trim());
    return m.find() ? Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))})
        : Optional.empty();
  }

  private static int compare(int[] a, int[] b) {
    return a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]);
  }

  private static JsonObject finding(String code, String subject, String message) {
    JsonObject f = new JsonObject().put("code", code).put("severity", "Error").put("message", message);
    return subject == null ? f : f.put("subject", subject);
  }
}
