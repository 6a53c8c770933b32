package io.olmstead.controlplane.clusters;

import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;

/**
 * A row of {@code cluster_approvals} (a manual approval of one bundle of one subscription) and its
 * API form.
 */
public record ClusterApproval(
    String cluster,
    String subscription,
    String bundle,
    String approvedBy,
    OffsetDateTime approvedAt) {

  static final String COLUMNS = "cluster, subscription, bundle, approved_by, approved_at";

  static ClusterApproval of(Row row) {
    return new ClusterApproval(
        row.getString("cluster"),
        row.getString("subscription"),
        row.getString("bundle"),
        row.getString("approved_by"),
        row.getOffsetDateTime("approved_at"));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("cluster", cluster)
        .put("subscription", subscription)
        .put("bundle", bundle)
        .put("approvedBy", approvedBy)
        .put("approvedAt", approvedAt.toString());
  }
}
