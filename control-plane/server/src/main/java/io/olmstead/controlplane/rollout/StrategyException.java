package io.olmstead.controlplane.rollout;

/**
 * A strategy that passes the schema but breaks a rule of its own (two exclusive fields, a bad
 * selector, a label no cluster has): the API answers 422 naming {@link #pointer()}, a JSON pointer
 * into the request.
 */
final class StrategyException extends IllegalArgumentException {
  private final String field;

  StrategyException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The JSON pointer of the offending field, e.g. {@code /strategy/groupBy}. */
  String pointer() {
    return pointer("/strategy");
  }

  /**
   * The JSON pointer of the offending field under {@code root} (a subscription's {@code
   * /rolloutStrategy}).
   */
  String pointer(String root) {
    return root + (field.isEmpty() ? "" : "/" + field.replace('.', '/'));
  }
}
