package io.olmstead.controlplane.rollout;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.LabelSelector.SelectorException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * A recurring maintenance window: it opens at each start of a 5-field cron read in the wall-clock
 * time of an IANA zone and stays open for {@code durationMinutes} of real time. Construct with
 * {@link #of}, which validates.
 */
public record MaintenanceWindow(
    String name, LabelSelector selector, ExecutionTime starts, Duration duration, ZoneId zone) {

  /** Seven days: a longer window is no window at all. */
  public static final int MAX_DURATION_MINUTES = 7 * 24 * 60;

  private static final CronParser UNIX =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /** Validates every field; the exception names the first bad one. */
  public static MaintenanceWindow of(
      String name, String selector, String cron, int durationMinutes, String timeZone) {
    if (cron == null || cron.isBlank() || cron.trim().split("\\s+").length != 5) {
      throw new CalendarInputException(
          "cron", "must be a cron expression of 5 fields (minute hour day month weekday)");
    }
    ExecutionTime starts;
    try {
      starts = ExecutionTime.forCron(UNIX.parse(cron.trim()));
    } catch (IllegalArgumentException e) {
      throw new CalendarInputException(
          "cron", "'" + cron + "' is not a valid cron expression: " + e.getMessage());
    }
    if (!firesWithinEightYears(starts)) {
      // 30 February or 31 April: a window that never opens would hold its clusters for ever
      throw new CalendarInputException("cron", "'" + cron + "' never fires (no such date)");
    }
    if (durationMinutes <= 0 || durationMinutes > MAX_DURATION_MINUTES) {
      throw new CalendarInputException(
          "durationMinutes", "must be between 1 and " + MAX_DURATION_MINUTES);
    }
    return new MaintenanceWindow(
        name, parseSelector(selector), starts, Duration.ofMinutes(durationMinutes), zone(timeZone));
  }

  /**
   * Whether the cron names a real date: eight years from a fixed day hold every date a calendar
   * has, 29 February too.
   */
  private static boolean firesWithinEightYears(ExecutionTime starts) {
    ZonedDateTime from = ZonedDateTime.of(2026, 3, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    try {
      return starts.nextExecution(from).filter(t -> t.isBefore(from.plusYears(8))).isPresent();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Only names of the IANA database: offsets such as {@code +02:00} do not follow daylight saving.
   */
  static ZoneId zone(String timeZone) {
    if (timeZone == null || !ZoneId.getAvailableZoneIds().contains(timeZone)) {
      throw new CalendarInputException(
          "timeZone", "'" + timeZone + "' is not an IANA time zone such as Europe/Berlin");
    }
    return ZoneId.of(timeZone);
  }

  static LabelSelector parseSelector(String selector) {
    try {
      return LabelSelector.parse(selector);
    } catch (SelectorException e) {
      throw new CalendarInputException("selector", e.getMessage());
    }
  }
}
