package io.olmstead.controlplane.maturity;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes versions as clusters report them against the {@code portability/removed-api} findings
 * of a stored maturity report (pure): which findings name an API the cluster's version no longer
 * serves.
 */
public final class KubeVersions {
  public static final String REMOVED_RULE = "portability/removed-api";
  private static final Pattern MINOR = Pattern.compile("^v?(\\d{1,4})\\.(\\d{1,4})");

  private KubeVersions() {}

  /**
   * {@code [major, minor]} of a Kubernetes version as clusters report it ({@code v1.29.3+k3s1},
   * {@code 1.25}).
   */
  public static Optional<int[]> minor(String version) {
    if (version == null) {
      return Optional.empty();
    }
    Matcher m = MINOR.matcher(version.trim());
    return m.find()
        ? Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))})
        : Optional.empty();
  }

  /**
   * True when {@code runs} is at or past {@code removedIn} (both parsed; false when either does not
   * parse).
   */
  public static boolean reached(String runs, String removedIn) {
    Optional<int[]> a = minor(runs);
    Optional<int[]> b = minor(removedIn);
    if (a.isEmpty() || b.isEmpty()) {
      return false;
    }
    int[] x = a.get();
    int[] y = b.get();
    return (x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1])) >= 0;
  }

  /** True when {@code report} (null: none) has any {@code portability/removed-api} finding. */
  public static boolean usesRemovedApis(JsonObject report) {
    return report != null
        && report.getJsonArray("findings", new JsonArray()).stream()
            .anyMatch(o -> o instanceof JsonObject f && REMOVED_RULE.equals(f.getString("rule")));
  }

  /**
   * The {@code portability/removed-api} findings of {@code report} that a cluster on {@code
   * kubeVersion} hits.
   */
  public static List<JsonObject> removedFor(JsonObject report, String kubeVersion) {
    List<JsonObject> out = new ArrayList<>();
    if (report == null || kubeVersion == null) {
      return out;
    }
    for (Object o : report.getJsonArray("findings", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      if (REMOVED_RULE.equals(f.getString("rule"))
          && reached(kubeVersion, f.getString("removedIn"))) {
        out.add(f);
      }
    }
    return out;
  }
}
