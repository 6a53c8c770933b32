package io.olmstead.controlplane.hypershift;

import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * What to do about one HostedCluster. {@code labels} are the cluster's labels after the change,
 * {@code managed} the part of them that comes from the HostedCluster (remembered so that a label
 * removed there is removed here too while labels an admin added stay), {@code facts} the {@code
 * hypershift} facts; {@code reason} is a short fixed code (bounded, used as a metric label) and
 * {@code detail} says it for people.
 */
public record Decision(
    Kind kind,
    Mode mode,
    String cluster,
    Map<String, String> labels,
    Map<String, String> managed,
    JsonObject facts,
    String reason,
    String detail) {

  /** The decisions. */
  public enum Kind {
    ENROLL,
    UPDATE,
    UNCHANGED,
    RETIRE,
    CONFLICT,
    IGNORE
  }

  /** How an enrollment treats the name's current holder. */
  public enum Mode {
    /** The name is free. */
    NEW,
    /** The same clusterID comes back to its own retired cluster (an opt-out was lifted). */
    REVIVE,
    /**
     * The name is held by a retired cluster of another clusterID: that row is replaced by a new
     * cluster.
     */
    REPLACE
  }

  static Decision enroll(
      Mode mode,
      String cluster,
      Map<String, String> labels,
      Map<String, String> managed,
      JsonObject facts) {
    return new Decision(Kind.ENROLL, mode, cluster, labels, managed, facts, "enrolled", null);
  }

  static Decision update(
      String cluster, Map<String, String> labels, Map<String, String> managed, JsonObject facts) {
    return new Decision(Kind.UPDATE, null, cluster, labels, managed, facts, "updated", null);
  }

  static Decision unchanged(String cluster) {
    return new Decision(Kind.UNCHANGED, null, cluster, null, null, null, "unchanged", null);
  }

  static Decision retire(String cluster, String reason, String detail) {
    return new Decision(Kind.RETIRE, null, cluster, null, null, null, reason, detail);
  }

  static Decision conflict(String cluster, String reason, String detail) {
    return new Decision(Kind.CONFLICT, null, cluster, null, null, null, reason, detail);
  }

  static Decision ignore(String cluster, String reason, String detail) {
    return new Decision(Kind.IGNORE, null, cluster, null, null, null, reason, detail);
  }
}
