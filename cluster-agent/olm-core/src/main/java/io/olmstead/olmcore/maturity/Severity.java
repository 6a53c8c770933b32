package io.olmstead.olmcore.maturity;

import java.util.Locale;

/**
 * How much a finding matters: errors break a multi-tenant cluster's expectations, infos only
 * inform.
 */
public enum Severity {
  ERROR(25),
  WARNING(10),
  INFO(0);

  private final int penalty;

  Severity(int penalty) {
    this.penalty = penalty;
  }

  /** Points one finding of this severity takes off its category's score of 100. */
  public int penalty() {
    return penalty;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses "error", "warning" or "info" (any case); null for anything else. */
  public static Severity parse(String text) {
    for (Severity s : values()) {
      if (s.id().equalsIgnoreCase(text)) {
        return s;
      }
    }
    return null;
  }
}
