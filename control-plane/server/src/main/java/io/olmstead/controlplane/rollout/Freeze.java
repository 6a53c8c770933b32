package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.selector.LabelSelector;
import java.time.Instant;

/**
 * A change freeze over {@code [start, end)} for the clusters its selector matches (an empty
 * selector: the fleet).
 */
public record Freeze(String name, Instant start, Instant end, LabelSelector selector) {

  /** Validates; the exception names the bad field. */
  public static Freeze of(String name, Instant start, Instant end, String selector) {
    if (start == null) {
      throw new CalendarInputException("start", "is required");
    }
    if (end == null || !end.isAfter(start)) {
      throw new CalendarInputException("end", "must be after start");
    }
    return new Freeze(name, start, end, MaintenanceWindow.parseSelector(selector));
  }

  boolean covers(Instant t) {
    return !t.isBefore(start) && t.isBefore(end);
  }
}
