package io.olmstead.controlplane.hypershift;

import io.olmstead.controlplane.agentgateway.EnrollHandler;
import io.olmstead.controlplane.clusters.ClustersModule;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** The name, labels and facts an Olmstead cluster gets from its HostedCluster (pure). */
public final class HostedLabels {
  public static final String SOURCE = "olmstead.io/source";
  public static final String PLATFORM = "hypershift.olmstead.io/platform";
  public static final String VERSION = "hypershift.olmstead.io/version";
  public static final String NAMESPACE = "hypershift.olmstead.io/namespace";
  public static final String NAME = "hypershift.olmstead.io/name";
  public static final String PAUSED = "hypershift.olmstead.io/paused";

  /**
   * A rollout member's message while its paused HostedCluster holds it (it is never approved while
   * paused).
   */
  public static final String PAUSED_HOLD = "held: its HostedCluster is paused";

  /**
   * The key under the cluster's facts that holds what the watcher knows (the agent's own facts live
   * beside it).
   */
  public static final String FACTS_KEY = "hypershift";

  private HostedLabels() {}

  /** A result or the reason it cannot be had. */
  public record Checked<T>(T value, String reason, String detail) {
    static <T> Checked<T> ok(T value) {
      return new Checked<>(value, null, null);
    }

    static <T> Checked<T> invalid(String reason, String detail) {
      return new Checked<>(null, reason, detail);
    }

    public boolean valid() {
      return reason == null;
    }
  }

  /**
   * Whether a cluster's labels say its HostedCluster is paused: what rollouts check before
   * approving it.
   */
  public static boolean paused(JsonObject labels) {
    return labels != null && "true".equals(String.valueOf(labels.getValue(PAUSED)));
  }

  /**
   * {@code <namespace>-<name>} ("." in the name as "-") or the {@code olmstead.io/cluster-name}
   * annotation.
   */
  public static Checked<String> clusterName(HostedCluster hc) {
    String name = hc.annotation(HostedCluster.NAME_ANNOTATION).orElse(hc.controlPlaneNamespace());
    if (!EnrollHandler.DNS_LABEL.matcher(name).matches()) {
      return Checked.invalid(
          "invalid-name",
          "'"
              + abbreviate(name)
              + "' is not a valid cluster name (a DNS label of"
              + " at most 63 characters; set the "
              + HostedCluster.NAME_ANNOTATION
              + " annotation)");
    }
    return Checked.ok(name);
  }

  /** The HostedCluster's own labels plus the watcher's, every one a valid Kubernetes label. */
  public static Checked<Map<String, String>> desired(HostedCluster hc, Instant now) {
    Map<String, String> labels = new TreeMap<>(hc.labels());
    labels.put(SOURCE, "hypershift");
    labels.put(NAMESPACE, hc.namespace());
    labels.put(NAME, hc.name());
    if (hc.platform() != null) {
      labels.put(PLATFORM, hc.platform());
    }
    if (hc.completedVersion() != null) {
      labels.put(VERSION, hc.completedVersion());
    }
    if (hc.paused(now)) {
      labels.put(PAUSED, "true");
    }
    for (Map.Entry<String, String> label : labels.entrySet()) {
      if (!EnrollHandler.LABEL_KEY.matcher(label.getKey()).matches()
          || !EnrollHandler.LABEL_VALUE.matcher(label.getValue()).matches()) {
        return Checked.invalid(
            "invalid-labels",
            "label "
                + abbreviate(label.getKey())
                + "="
                + abbreviate(label.getValue())
                + " is not a valid Kubernetes label");
      }
    }
    return Checked.ok(labels);
  }

  /**
   * The cluster's labels after applying {@code desired}: labels the watcher set before ({@code
   * applied}) and no longer wants are removed, labels set otherwise (by an admin) are kept, and
   * {@code desired} wins on every key it has.
   */
  public static Checked<Map<String, String>> merge(
      Map<String, String> current, Map<String, String> applied, Map<String, String> desired) {
    Map<String, String> merged = new TreeMap<>(current);
    applied.keySet().forEach(merged::remove);
    merged.putAll(desired);
    if (merged.size() > ClustersModule.MAX_LABELS) {
      return Checked.invalid(
          "too-many-labels",
          "the cluster would have "
              + merged.size()
              + " labels (at most "
              + ClustersModule.MAX_LABELS
              + ")");
    }
    return Checked.ok(merged);
  }

  /** What the watcher adds to the cluster's facts, under {@value #FACTS_KEY}. */
  public static JsonObject facts(HostedCluster hc) {
    return new JsonObject()
        .put("clusterID", hc.clusterId())
        .put("releaseImage", hc.releaseImage())
        .put("desiredVersion", hc.desiredVersion())
        .put("controlPlaneNamespace", hc.controlPlaneNamespace())
        .put("hostedCluster", hc.key());
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
