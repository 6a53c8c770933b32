package io.olmstead.controlplane.audit;

import io.vertx.core.json.JsonObject;

/**
 * One audit_log row: who ({@code token:<name>}, {@code cluster:<name>}, {@code system}), what, on
 * what, how it ended.
 */
public record AuditEntry(
    String actor,
    String action,
    String resource,
    String outcome,
    JsonObject detail,
    String requestId) {
  public static final String SUCCESS = "success";
  public static final String DENIED = "denied";
  public static final String FAILURE = "failure";

  public AuditEntry {
    detail = detail == null ? new JsonObject() : detail;
  }

  /**
   * A change the control plane made on its own (no API request behind it): {@code actor} names the
   * component and the instance that made it ({@code pool:<replica>}, {@code hypershift}), the row
   * carries no request id.
   */
  public static AuditEntry system(
      String actor, String action, String resource, String outcome, JsonObject detail) {
    return new AuditEntry(actor, action, resource, outcome, detail, null);
  }

  public AuditEntry withOutcome(String newOutcome, JsonObject newDetail) {
    return new AuditEntry(actor, action, resource, newOutcome, newDetail, requestId);
  }
}
