package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of planning one bundle: the ordered Kubernetes objects to apply plus the CSV, or a
 * failure with an OLM CSV reason ({@code InvalidInstallStrategy}, {@code UnsupportedOperatorGroup},
 * ...).
 */
public final class InstallPlanResult {
  public static final String REASON_INVALID_INSTALL_STRATEGY = "InvalidInstallStrategy";
  public static final String REASON_UNSUPPORTED_OPERATOR_GROUP = "UnsupportedOperatorGroup";
  public static final String REASON_INVALID_INSTALL_MODES = "InvalidInstallModes";

  /**
   * A manifest of a kind OLM does not install ({@link SupportedKinds}): OLM fails the install plan.
   */
  public static final String REASON_UNSUPPORTED_RESOURCE = SupportedKinds.UNSUPPORTED_RESOURCE;

  /** The bundle's manifests could not be decoded, or it carries no CSV. */
  public static final String REASON_INVALID_BUNDLE = "InvalidBundle";

  private final List<JsonNode> objects;
  private final JsonNode csv;
  private final String reason;
  private final String message;

  private InstallPlanResult(List<JsonNode> objects, JsonNode csv, String reason, String message) {
    this.objects = objects;
    this.csv = csv;
    this.reason = reason;
    this.message = message;
  }

  static InstallPlanResult success(List<JsonNode> objects, JsonNode csv) {
    return new InstallPlanResult(List.copyOf(objects), csv, null, null);
  }

  static InstallPlanResult failure(String reason, String message, JsonNode csv) {
    return new InstallPlanResult(List.of(), csv, reason, message);
  }

  /** True when {@link #objects()} is the plan; false when {@link #reason()} says why not. */
  public boolean succeeded() {
    return reason == null;
  }

  /** Objects in apply order; empty on failure. */
  public List<JsonNode> objects() {
    return objects;
  }

  /** The bundle's ClusterServiceVersion (with namespace set), when the bundle carried one. */
  public Optional<JsonNode> csv() {
    return Optional.ofNullable(csv);
  }

  /** The OLM failure reason, null on success. */
  public String reason() {
    return reason;
  }

  /** The failure message, null on success. */
  public String message() {
    return message;
  }

  @Override
  public String toString() {
    return succeeded()
        ? "InstallPlanResult[" + objects.size() + " objects]"
        : "InstallPlanResult[" + reason + ": " + message + "]";
  }
}
