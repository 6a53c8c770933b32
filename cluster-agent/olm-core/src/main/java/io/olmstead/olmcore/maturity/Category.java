package io.olmstead.olmcore.maturity;

import java.util.Locale;

/**
 * The maturity model's dimensions (operator maturity model: consumability, security, robustness,
 * portability) plus lifecycle.
 */
public enum Category {
  CONSUMABILITY,
  SECURITY,
  ROBUSTNESS,
  PORTABILITY,
  LIFECYCLE;

  /** The lower-case id used in rule ids and the API. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
