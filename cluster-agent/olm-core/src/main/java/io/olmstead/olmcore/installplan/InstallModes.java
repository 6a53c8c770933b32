package io.olmstead.olmcore.installplan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CSV install-mode check of OLM: does the CSV support the operator group's target namespaces?
 */
final class InstallModes {
  static final String OWN = "OwnNamespace";
  static final String SINGLE = "SingleNamespace";
  static final String MULTI = "MultiNamespace";
  static final String ALL = "AllNamespaces";

  private InstallModes() {}

  /** A failure (reason + message) or empty when the targets are supported. */
  record Problem(String reason, String message) {}

  static Optional<Problem> check(JsonNode csv, String operatorNamespace, List<String> targets) {
    Map<String, Boolean> set = new LinkedHashMap<>();
    JsonNode modes = csv.path("spec").path("installModes");
    if (!modes.isMissingNode() && !modes.isNull() && !modes.isArray()) {
      return Optional.of(
          new Problem(
              InstallPlanResult.REASON_INVALID_INSTALL_MODES, "spec.installModes is not a list"));
    }
    for (JsonNode mode : modes) {
      String type = mode.path("type").asText("");
      if (set.containsKey(type)) {
        return Optional.of(
            new Problem(
                InstallPlanResult.REASON_INVALID_INSTALL_MODES,
                "InstallMode list contains duplicates, cannot make set: " + modes));
      }
      set.put(type, mode.path("supported").asBoolean(false));
    }
    return supports(set, operatorNamespace, targets)
        .map(m -> new Problem(InstallPlanResult.REASON_UNSUPPORTED_OPERATOR_GROUP, m));
  }

  /** Mirrors operator-framework/api InstallModeSet.Supports, including its messages. */
  private static Optional<String> supports(
      Map<String, Boolean> set, String operatorNamespace, List<String> targets) {
    int n = targets.size();
    if (n == 0) {
      return Optional.of(
          "operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces");
    }
    if (n == 1) {
      String target = targets.get(0);
      if (target.equals(operatorNamespace)) {
        return missing(set, OWN, "cannot configure to watch own namespace");
      }
      if (target.isEmpty()) {
        return missing(set, ALL, "cannot configure to watch all namespaces");
      }
      return missing(set, SINGLE, "cannot configure to watch one namespace");
    }
    if (!set.getOrDefault(MULTI, false)) {
      return Optional.of(
          MULTI + " InstallModeType not supported, cannot configure to watch " + n + " namespaces");
    }
    for (String target : targets) {
      if (target.equals(operatorNamespace) && !set.getOrDefault(OWN, false)) {
        return Optional.of(
            OWN + " InstallModeType not supported, cannot configure to watch own namespace");
      }
      if (target.isEmpty()) {
        return Optional.of(
            "operatorgroup has invalid selected namespaces, NamespaceAll found when |selected namespaces| > 1");
      }
    }
    return Optional.empty();
  }

  private static Optional<String> missing(Map<String, Boolean> set, String mode, String what) {
    return set.getOrDefault(mode, false)
        ? Optional.empty()
        : Optional.of(mode + " InstallModeType not supported, " + what);
  }
}
