package io.olmstead.controlplane.hypershift;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the watcher reads of a {@code hypershift.openshift.io/v1beta1} HostedCluster, parsed
 * leniently from its generic form (a map as fabric8 or Jackson give it): a missing or malformed
 * field reads as absent, never as an exception, so a broken object is skipped with a reason instead
 * of stopping the watcher.
 */
public record HostedCluster(
    String namespace,
    String name,
    String clusterId,
    Map<String, String> labels,
    Map<String, String> annotations,
    boolean deleting,
    Map<String, String> conditions,
    String kubeconfigSecret,
    String completedVersion,
    String desiredVersion,
    String releaseImage,
    String platform,
    String pausedUntil) {

  /** The opt-out annotation; "false" keeps the HostedCluster out of Olmstead. */
  public static final String ENROLL_ANNOTATION = "olmstead.io/enroll";

  /** Names the Olmstead cluster instead of {@code <namespace>-<name>}. */
  public static final String NAME_ANNOTATION = "olmstead.io/cluster-name";

  /** Parses the object; fields of the wrong type read as absent. */
  public static HostedCluster of(Map<String, Object> object) {
    Map<String, Object> metadata = map(object.get("metadata"));
    Map<String, Object> spec = map(object.get("spec"));
    Map<String, Object> status = map(object.get("status"));
    Map<String, Object> version = map(status.get("version"));
    Map<String, String> conditions = new TreeMap<>();
    for (Object c : list(status.get("conditions"))) {
      Map<String, Object> condition = map(c);
      if (condition.get("type") instanceof String type
          && condition.get("status") instanceof String value) {
        conditions.put(type, value);
      }
    }
    String completed = null;
    // history is newest first: the first Completed entry is the version the cluster runs
    for (Object h : list(version.get("history"))) {
      Map<String, Object> entry = map(h);
      if ("Completed".equals(entry.get("state")) && string(entry.get("version")) != null) {
        completed = string(entry.get("version"));
        break;
      }
    }
    return new HostedCluster(
        string(metadata.get("namespace")),
        string(metadata.get("name")),
        string(spec.get("clusterID")),
        strings(metadata.get("labels")),
        strings(metadata.get("annotations")),
        metadata.get("deletionTimestamp") != null,
        conditions,
        string(map(status.get("kubeconfig")).get("name")),
        completed,
        string(map(version.get("desired")).get("version")),
        string(map(spec.get("release")).get("image")),
        string(map(spec.get("platform")).get("type")),
        string(spec.get("pausedUntil")));
  }

  /** Whether the condition of this type is "True". */
  public boolean condition(String type) {
    return "True".equals(conditions.get(type));
  }

  public boolean optedOut() {
    return "false".equalsIgnoreCase(annotations.getOrDefault(ENROLL_ANNOTATION, "").trim());
  }

  /**
   * {@code <namespace>-<name>} with "." replaced by "-": HyperShift's name for the hosted control
   * plane namespace.
   */
  public String controlPlaneNamespace() {
    return namespace + "-" + name.replace('.', '-');
  }

  /**
   * Paused as HyperShift pauses: {@code spec.pausedUntil} is "true" or a time still ahead, or
   * reconciliation is reported inactive.
   */
  public boolean paused(Instant now) {
    if ("False".equals(conditions.get("ReconciliationActive"))) {
      return true;
    }
    if (pausedUntil == null || pausedUntil.isBlank()) {
      return false;
    }
    if ("true".equalsIgnoreCase(pausedUntil.trim())) {
      return true;
    }
    try {
      return Instant.parse(pausedUntil.trim()).isAfter(now);
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** namespace/name, for logs and audit details. */
  public String key() {
    return namespace + "/" + name;
  }

  Optional<String> annotation(String key) {
    return Optional.ofNullable(annotations.get(key)).map(String::trim).filter(v -> !v.isEmpty());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }

  private static String string(Object value) {
    return value instanceof String s && !s.isBlank() ? s : null;
  }

  private static Map<String, String> strings(Object value) {
    Map<String, String> out = new TreeMap<>();
    map(value)
        .forEach(
            (k, v) -> {
              if (v instanceof String s) {
                out.put(k, s);
              }
            });
    return out;
  }
}
