package io.olmstead.controlplane.rollout;

/**
 * A maintenance window or freeze that cannot be used, naming the offending field ({@code cron},
 * {@code timeZone}...).
 */
public final class CalendarInputException extends IllegalArgumentException {
  private final String field;

  public CalendarInputException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  public String field() {
    return field;
  }
}
