package io.olmstead.olmcore.lifecycle;

import java.util.Optional;

/**
 * The CSV condition reasons of OLM ({@code operator-framework/api} {@code CSVReason*} constants),
 * wire names exact.
 */
public enum CsvReason {
  REQUIREMENTS_UNKNOWN("RequirementsUnknown"),
  REQUIREMENTS_NOT_MET("RequirementsNotMet"),
  REQUIREMENTS_MET("AllRequirementsMet"),
  OWNER_CONFLICT("OwnerConflict"),
  COMPONENT_FAILED("InstallComponentFailed"),
  COMPONENT_FAILED_NO_RETRY("InstallComponentFailedNoRetry"),
  INVALID_STRATEGY("InvalidInstallStrategy"),
  WAITING("InstallWaiting"),
  INSTALL_SUCCESSFUL("InstallSucceeded"),
  INSTALL_CHECK_FAILED("InstallCheckFailed"),
  COMPONENT_UNHEALTHY("ComponentUnhealthy"),
  BEING_REPLACED("BeingReplaced"),
  REPLACED("Replaced"),
  NEEDS_REINSTALL("NeedsReinstall"),
  NEEDS_CERT_ROTATION("NeedsCertRotation"),
  API_SERVICE_RESOURCE_ISSUE("APIServiceResourceIssue"),
  API_SERVICE_RESOURCES_NEED_REINSTALL("APIServiceResourcesNeedReinstall"),
  API_SERVICE_INSTALL_FAILED("APIServiceInstallFailed"),
  COPIED("Copied"),
  INVALID_INSTALL_MODES("InvalidInstallModes"),
  NO_TARGET_NAMESPACES("NoTargetNamespaces"),
  UNSUPPORTED_OPERATOR_GROUP("UnsupportedOperatorGroup"),
  NO_OPERATOR_GROUP("NoOperatorGroup"),
  TOO_MANY_OPERATOR_GROUPS("TooManyOperatorGroups"),
  INTER_OPERATOR_GROUP_OWNER_CONFLICT("InterOperatorGroupOwnerConflict"),
  CANNOT_MODIFY_STATIC_OPERATOR_GROUP_PROVIDED_APIS("CannotModifyStaticOperatorGroupProvidedAPIs"),
  DETECTED_CLUSTER_CHANGE("DetectedClusterChange"),
  INVALID_WEBHOOK_DESCRIPTION("InvalidWebhookDescription"),
  OPERATOR_CONDITION_NOT_UPGRADEABLE("OperatorConditionNotUpgradeable"),
  WAITING_FOR_CLEANUP_TO_COMPLETE("WaitingOnCleanup"),
  /** Olmstead: the bundle is an image the control plane has not unpacked yet (Pending). */
  BUNDLE_UNPACKING("BundleUnpacking"),
  /**
   * Olmstead: the control plane could not unpack the bundle image (Failed, with the registry's
   * message).
   */
  BUNDLE_UNPACK_FAILED("BundleUnpackFailed"),
  /**
   * Olmstead: a subscription with {@code crdUpgradeSafety: Strict} refuses a breaking CRD schema
   * change.
   */
  CRD_SCHEMA_UNSAFE("CrdSchemaUnsafe");

  private final String wireName;

  CsvReason(String wireName) {
    this.wireName = wireName;
  }

  /** The value of {@code status.reason}. */
  public String wireName() {
    return wireName;
  }

  public static Optional<CsvReason> fromWireName(String name) {
    for (CsvReason r : values()) {
      if (r.wireName.equals(name)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
