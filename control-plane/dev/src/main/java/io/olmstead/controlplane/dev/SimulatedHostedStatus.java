package io.olmstead.controlplane.dev;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SIMULATION, pure: what the simulated HyperShift operator of {@code dev --simulate-hypershift}
 * does next to a HostedCluster (given the object, whether its simulated guest runs, the time and
 * the delay a version takes), and the objects it writes. Status fields, condition types and reasons
 * follow the real HostedCluster status (see {@code
 * ../shared/hypershift/example-hostedcluster-with-status.yaml}); the versions come from the release
 * image tag.
 */
public final class SimulatedHostedStatus {
  public static final String FINALIZER = "hypershift.openshift.io/finalizer";

  /** Bounds {@code status.version.history} (HyperShift prunes it too). */
  static final int MAX_HISTORY = 10;

  /** The next thing to do to a HostedCluster. */
  public enum Step {
    /** nothing until something changes or time passes */
    NONE,
    /** add the finalizer and, when missing, a clusterID (as HyperShift does on creation) */
    ADOPT,
    /** create the control plane namespace, the simulated guest API and the kubeconfig secrets */
    PROVISION,
    /**
     * the release image tag is not a version: report ValidReleaseImage=False and wait for a new
     * image
     */
    INVALID_IMAGE,
    /** a new release image: history gets a Partial entry, Progressing=True */
    START_VERSION,
    /** the Partial version has taken its delay: Completed, Available=True, Progressing=False */
    COMPLETE_VERSION,
    /** deleted: tear the guest down, delete the secrets and namespace, drop the finalizer */
    TEAR_DOWN
  }

  private SimulatedHostedStatus() {}

  public static Step next(
      Map<String, Object> hc, boolean guestRunning, Instant now, Duration delay) {
    Map<String, Object> metadata = map(hc.get("metadata"));
    Map<String, Object> spec = map(hc.get("spec"));
    Map<String, Object> status = map(hc.get("status"));
    boolean finalizer = list(metadata.get("finalizers")).contains(FINALIZER);
    if (metadata.get("deletionTimestamp") != null) {
      return guestRunning || finalizer ? Step.TEAR_DOWN : Step.NONE;
    }
    if (!finalizer || string(spec.get("clusterID")) == null) {
      return Step.ADOPT;
    }
    if (!guestRunning) {
      return Step.PROVISION;
    }
    String image = string(map(spec.get("release")).get("image"));
    if (ReleaseVersion.of(image).isEmpty()) {
      return "False".equals(conditionStatus(status, "ValidReleaseImage"))
              && image != null
              && image.equals(string(map(map(status.get("version")).get("desired")).get("image")))
          ? Step.NONE
          : Step.INVALID_IMAGE;
    }
    Map<String, Object> version = map(status.get("version"));
    if (!image.equals(string(map(version.get("desired")).get("image")))) {
      return Step.START_VERSION;
    }
    List<Object> history = list(version.get("history"));
    if (!history.isEmpty() && "Partial".equals(map(history.get(0)).get("state"))) {
      Instant started = instant(map(history.get(0)).get("startedTime"));
      return started == null || !now.isBefore(started.plus(delay))
          ? Step.COMPLETE_VERSION
          : Step.NONE;
    }
    return Step.NONE;
  }

  /** A copy with the finalizer and a clusterID ({@code newId} when it has none). */
  public static Map<String, Object> adopted(Map<String, Object> hc, Supplier<String> newId) {
    Map<String, Object> copy = deepCopy(hc);
    Map<String, Object> metadata = child(copy, "metadata");
    List<Object> finalizers = new ArrayList<>(list(metadata.get("finalizers")));
    if (!finalizers.contains(FINALIZER)) {
      finalizers.add(FINALIZER);
    }
    metadata.put("finalizers", finalizers);
    Map<String, Object> spec = child(copy, "spec");
    if (string(spec.get("clusterID")) == null) {
      spec.put("clusterID", newId.get());
    }
    return copy;
  }

  /** A copy without the finalizer (the last step of a deletion). */
  public static Map<String, Object> released(Map<String, Object> hc) {
    Map<String, Object> copy = deepCopy(hc);
    Map<String, Object> metadata = child(copy, "metadata");
    List<Object> finalizers = new ArrayList<>(list(metadata.get("finalizers")));
    finalizers.remove(FINALIZER);
    metadata.put("finalizers", finalizers);
    return copy;
  }

  /**
   * The status once a version starts: desired and a Partial history entry, Progressing=True, the
   * kubeconfig named.
   */
  public static Map<String, Object> started(
      Map<String, Object> hc, String endpointHost, int endpointPort, Instant now) {
    Map<String, Object> copy = deepCopy(hc);
    String name = string(map(copy.get("metadata")).get("name"));
    String image = string(map(map(copy.get("spec")).get("release")).get("image"));
    String version = ReleaseVersion.of(image).orElseThrow();
    Map<String, Object> status = child(copy, "status");
    status.put("kubeconfig", new LinkedHashMap<>(Map.of("name", name + "-admin-kubeconfig")));
    status.put(
        "controlPlaneEndpoint",
        new LinkedHashMap<>(Map.of("host", endpointHost, "port", endpointPort)));
    for (String field : List.of("version", "controlPlaneVersion")) {
      Map<String, Object> v = child(status, field);
      v.put("desired", new LinkedHashMap<>(Map.of("image", image, "version", version)));
      List<Object> history = new ArrayList<>(list(v.get("history")));
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("image", image);
      entry.put("startedTime", now.toString());
      entry.put("state", "Partial");
      entry.put("verified", false);
      entry.put("version", version);
      history.add(0, entry);
      v.put("history", new ArrayList<>(history.subList(0, Math.min(MAX_HISTORY, history.size()))));
    }
    boolean firstInstall =
        conditionStatus(status, "Available") == null
            || "False".equals(conditionStatus(status, "Available"));
    setCondition(status, "ValidReleaseImage", "True", "AsExpected", "Release image is valid", now);
    setCondition(
        status,
        "ReconciliationActive",
        "True",
        "AsExpected",
        "Reconciliation active on resource",
        now);
    setCondition(
        status, "Degraded", "False", "AsExpected", "The hosted cluster is not degraded", now);
    if (firstInstall) {
      setCondition(
          status,
          "Available",
          "False",
          "WaitingForAvailable",
          "Waiting for hosted control plane to be healthy (simulated)",
          now);
    }
    setCondition(
        status,
        "Progressing",
        "True",
        "Progressing",
        "HostedCluster is deploying, upgrading, or"
            + " reconfiguring: version "
            + version
            + " (simulated)",
        now);
    return copy;
  }

  /**
   * The status once the Partial version took its delay: Completed, Available=True (AsExpected),
   * Progressing=False.
   */
  public static Map<String, Object> completed(Map<String, Object> hc, Instant now) {
    Map<String, Object> copy = deepCopy(hc);
    Map<String, Object> status = child(copy, "status");
    for (String field : List.of("version", "controlPlaneVersion")) {
      List<Object> history = list(child(status, field).get("history"));
      if (!history.isEmpty() && history.get(0) instanceof Map<?, ?>) {
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = (Map<String, Object>) history.get(0);
        entry.put("state", "Completed");
        entry.put("completionTime", now.toString());
      }
    }
    setCondition(
        status, "Available", "True", "AsExpected", "The hosted control plane is available", now);
    setCondition(
        status, "Progressing", "False", "AsExpected", "HostedCluster is at expected version", now);
    return copy;
  }

  /**
   * The status of a release image whose tag is not a version: ValidReleaseImage=False, desired
   * image recorded.
   */
  public static Map<String, Object> invalidImage(Map<String, Object> hc, Instant now) {
    Map<String, Object> copy = deepCopy(hc);
    String image = string(map(map(copy.get("spec")).get("release")).get("image"));
    Map<String, Object> status = child(copy, "status");
    Map<String, Object> desired = child(child(status, "version"), "desired");
    desired.put("image", image == null ? "" : image);
    desired.remove("version");
    setCondition(
        status,
        "ValidReleaseImage",
        "False",
        "InvalidImage",
        "the simulation reads the version from the"
            + " release image tag (like 4.19.7-multi); "
            + image
            + " has none",
        now);
    return copy;
  }

  /** The status of condition {@code type}, or null. */
  static String conditionStatus(Map<String, Object> status, String type) {
    for (Object c : list(status.get("conditions"))) {
      if (type.equals(map(c).get("type"))) {
        return string(map(c).get("status"));
      }
    }
    return null;
  }

  private static void setCondition(
      Map<String, Object> status,
      String type,
      String value,
      String reason,
      String message,
      Instant now) {
    List<Object> conditions = new ArrayList<>(list(status.get("conditions")));
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("lastTransitionTime", now.toString());
    for (int i = 0; i < conditions.size(); i++) {
      Map<String, Object> old = map(conditions.get(i));
      if (type.equals(old.get("type"))) {
        if (value.equals(old.get("status")) && old.get("lastTransitionTime") != null) {
          condition.put("lastTransitionTime", old.get("lastTransitionTime"));
        }
        conditions.remove(i);
        break;
      }
    }
    condition.put("message", message);
    condition.put("reason", reason);
    condition.put("status", value);
    condition.put("type", type);
    conditions.add(condition);
    status.put("conditions", conditions);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> child(Map<String, Object> parent, String key) {
    Object value = parent.get(key);
    if (value instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    Map<String, Object> created = new LinkedHashMap<>();
    parent.put(key, created);
    return created;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepCopy(Map<String, Object> map) {
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((k, v) -> copy.put(k, copyValue(v)));
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static Object copyValue(Object value) {
    if (value instanceof Map<?, ?> m) {
      return deepCopy((Map<String, Object>) m);
    }
    if (value instanceof List<?> l) {
      List<Object> copy = new ArrayList<>();
      l.forEach(v -> copy.add(copyValue(v)));
      return copy;
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value) {
    return value instanceof List<?> l ? (List<Object>) l : List.of();
  }

  private static String string(Object value) {
    return value instanceof String s && !s.isBlank() ? s : null;
  }

  private static Instant instant(Object value) {
    try {
      return value instanceof String s ? Instant.parse(s) : null;
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
