package io.olmstead.olmcore.lifecycle;

/**
 * Whether the operator a CSV replaces lets the replacement proceed; reason and message are set when
 * blocked.
 */
public record UpgradeDecision(boolean allowed, String reason, String message) {

  /**
   * The reason OLM puts on the pending replacement CSV while the replaced operator blocks the
   * upgrade.
   */
  public static final String NOT_UPGRADEABLE_REASON =
      CsvReason.OPERATOR_CONDITION_NOT_UPGRADEABLE.wireName();

  private static final UpgradeDecision ALLOWED = new UpgradeDecision(true, null, null);

  public static UpgradeDecision allow() {
    return ALLOWED;
  }

  public static UpgradeDecision block(String detail) {
    return new UpgradeDecision(
        false, NOT_UPGRADEABLE_REASON, "operator is not upgradeable: " + detail);
  }
}
