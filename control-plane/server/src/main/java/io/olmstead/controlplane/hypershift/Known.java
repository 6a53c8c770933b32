package io.olmstead.controlplane.hypershift;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Optional;

/**
 * What Olmstead knows that bears on one HostedCluster: the identity row for its clusterID (which
 * cluster it was enrolled as), and the cluster holding the name it would get (with the clusterID
 * that name was enrolled for, if the watcher enrolled it).
 */
public record Known(Optional<Identity> byId, Optional<Holder> byName) {

  public static final Known NOTHING = new Known(Optional.empty(), Optional.empty());

  /**
   * A {@code hosted_clusters} row: the cluster a clusterID was enrolled as, and the labels the
   * watcher set last.
   */
  public record Identity(
      String clusterId, String cluster, boolean retired, Map<String, String> appliedLabels) {}

  /**
   * A {@code clusters} row and the clusterID the watcher enrolled it for ({@code null}: enrolled
   * some other way, for example with an enrollment token).
   */
  public record Holder(
      String name, String status, Map<String, String> labels, JsonObject facts, String clusterId) {
    public boolean retired() {
      return "retired".equals(status);
    }
  }
}
