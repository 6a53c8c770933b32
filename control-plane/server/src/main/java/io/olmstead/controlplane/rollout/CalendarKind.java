package io.olmstead.controlplane.rollout;

import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/**
 * The two calendar resources: where they are stored, what audit calls them and how their spec is
 * validated.
 */
enum CalendarKind {
  WINDOW("maintenance_windows", "maintenance-window", "maintenance window", CalendarKind::window),
  FREEZE("freezes", "freeze", "freeze", CalendarKind::freeze);

  final String table;
  final String auditName;
  final String noun;

  /** Validates the body (throwing {@link CalendarInputException}) and returns the spec to store. */
  final Function<JsonObject, JsonObject> validate;

  CalendarKind(
      String table, String auditName, String noun, Function<JsonObject, JsonObject> validate) {
    this.table = table;
    this.auditName = auditName;
    this.noun = noun;
    this.validate = validate;
  }

  private static JsonObject window(JsonObject body) {
    String selector = body.getString("selector", "");
    String cron = body.getString("cron");
    Number given = body.getNumber("durationMinutes");
    // clamp, not intValue(): 2^32 + 1 must not wrap around to a valid 1
    int minutes =
        given == null
            ? 0
            : (int)
                Math.max(
                    Integer.MIN_VALUE,
                    Math.min(Integer.MAX_VALUE, Math.floor(given.doubleValue())));
    String zone = body.getString("timeZone");
    MaintenanceWindow.of("", selector, cron, minutes, zone);
    return new JsonObject()
        .put("selector", selector)
        .put("cron", cron.trim())
        .put("durationMinutes", minutes)
        .put("timeZone", zone);
  }

  private static JsonObject freeze(JsonObject body) {
    String selector = body.getString("selector", "");
    Instant start = instant(body, "start");
    Instant end = instant(body, "end");
    Freeze.of("", start, end, selector);
    JsonObject spec =
        new JsonObject()
            .put("start", start.toString())
            .put("end", end.toString())
            .put("selector", selector);
    return body.getString("reason") == null ? spec : spec.put("reason", body.getString("reason"));
  }

  private static Instant instant(JsonObject body, String field) {
    String text = body.getString(field);
    try {
      if (text != null && !text.matches("\\d{4}-.*")) {
        // RFC 3339 years have four digits; java.time alone would take -999999999-01-01T00:00:00Z
        throw new CalendarInputException(field, "'" + text + "' is not an RFC 3339 date-time");
      }
      return text == null ? null : OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new CalendarInputException(field, "'" + text + "' is not an RFC 3339 date-time");
    }
  }
}
