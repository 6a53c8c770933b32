package io.olmstead.olmcore.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * OLM's {@code Upgradeable} rule for the OperatorCondition ({@code operators.coreos.com/v2}) of the
 * CSV being replaced: an {@code spec.overrides} entry of type {@code Upgradeable} wins; otherwise a
 * {@code status.conditions} entry {@code Upgradeable} blocks when its status is {@code False} or
 * when its {@code observedGeneration} is older than {@code metadata.generation} (the operator has
 * not yet looked at the latest spec, so its answer cannot be trusted). No OperatorCondition, or no
 * Upgradeable entry, allows.
 */
public final class UpgradeableCheck {

  static final String UPGRADEABLE = "Upgradeable";

  private UpgradeableCheck() {}

  /**
   * Decides from the replaced CSV's OperatorCondition; {@code null} or a missing node means
   * "absent".
   */
  public static UpgradeDecision evaluate(JsonNode operatorCondition) {
    if (operatorCondition == null || !operatorCondition.isObject()) {
      return UpgradeDecision.allow();
    }
    JsonNode override = findUpgradeable(operatorCondition.path("spec").path("overrides"));
    if (override != null) {
      return isTrue(override)
          ? UpgradeDecision.allow()
          : UpgradeDecision.block(text(override, "message"));
    }
    JsonNode condition = findUpgradeable(operatorCondition.path("status").path("conditions"));
    if (condition == null) {
      return UpgradeDecision.allow();
    }
    long generation = operatorCondition.path("metadata").path("generation").asLong(0);
    long observed = condition.path("observedGeneration").asLong(0);
    if (observed < generation) {
      return UpgradeDecision.block(
          "the operatorcondition status \""
              + UPGRADEABLE
              + "\"=\""
              + text(condition, "status")
              + "\" is outdated");
    }
    if ("False".equals(text(condition, "status"))) {
      return UpgradeDecision.block(text(condition, "message"));
    }
    return UpgradeDecision.allow();
  }

  private static JsonNode findUpgradeable(JsonNode list) {
    if (!list.isArray()) {
      return null;
    }
    for (JsonNode entry : list) {
      if (UPGRADEABLE.equals(text(entry, "type"))) {
        return entry;
      }
    }
    return null;
  }

  private static boolean isTrue(JsonNode entry) {
    return "True".equals(text(entry, "status"));
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return v.isValueNode() ? v.asText() : "";
  }
}
