package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the fleet calendar (maintenance windows, freezes not yet over) and the labels of a
 * rollout's clusters, and builds the {@link CalendarGate} of one step. Parsed windows are kept by
 * name and resource version, so a tick parses a cron only when it changed.
 */
final class CalendarLoader {
  private static final Logger LOG = LoggerFactory.getLogger(CalendarLoader.class);
  private static final String WINDOWS =
      "SELECT name, spec, resource_version FROM maintenance_windows";
  private static final String FREEZES =
      "SELECT name, spec, resource_version FROM freezes "
          + "WHERE (spec->>'end')::timestamptz > now()";
  private static final String LABELS =
      "SELECT c.name, c.labels FROM rollout_clusters rc JOIN clusters c "
          + "ON c.name = rc.cluster WHERE rc.rollout_id = $1";

  private volatile Map<String, MaintenanceWindow> windows = new HashMap<>();
  private volatile Map<String, Freeze> freezes = new HashMap<>();

  /**
   * The calendar as stored now (an entry that no longer parses is skipped and logged, never fatal).
   */
  Future<MaintenanceCalendar> calendar(SqlClient client) {
    return client
        .query(WINDOWS)
        .execute()
        .compose(
            w ->
                client
                    .query(FREEZES)
                    .execute()
                    .map(
                        f -> {
                          Map<String, MaintenanceWindow> nextWindows = new HashMap<>();
                          for (Row r : w) {
                            String key = r.getString("name") + "@" + r.getLong("resource_version");
                            MaintenanceWindow parsed = windows.get(key);
                            if (parsed == null) {
                              parsed =
                                  parse(
                                      r,
                                      spec ->
                                          MaintenanceWindow.of(
                                              r.getString("name"),
                                              spec.getString("selector", ""),
                                              spec.getString("cron"),
                                              spec.getInteger("durationMinutes", 0),
                                              spec.getString("timeZone")));
                            }
                            if (parsed != null) {
                              nextWindows.put(key, parsed);
                            }
                          }
                          Map<String, Freeze> nextFreezes = new HashMap<>();
                          for (Row r : f) {
                            String key = r.getString("name") + "@" + r.getLong("resource_version");
                            Freeze parsed = freezes.get(key);
                            if (parsed == null) {
                              parsed =
                                  parse(
                                      r,
                                      spec ->
                                          Freeze.of(
                                              r.getString("name"),
                                              Instant.parse(spec.getString("start")),
                                              Instant.parse(spec.getString("end")),
                                              spec.getString("selector", "")));
                            }
                            if (parsed != null) {
                              nextFreezes.put(key, parsed);
                            }
                          }
                          windows = nextWindows;
                          freezes = nextFreezes;
                          return new MaintenanceCalendar(
                              new ArrayList<>(nextWindows.values()),
                              new ArrayList<>(nextFreezes.values()));
                        }));
  }

  /**
   * The gate of one step of {@code r} at {@code now}: always open when it ignores the calendar or
   * there is none.
   */
  Future<CalendarGate> gate(
      SqlClient client, Rollout r, MaintenanceCalendar calendar, Instant now) {
    if (!r.strategy().respectsCalendar() || calendar.isEmpty()) {
      return Future.succeededFuture(CalendarGate.alwaysOpen(now));
    }
    return client
        .preparedQuery(LABELS)
        .execute(Tuple.of(r.id()))
        .map(
            rows -> {
              Map<String, Map<String, String>> labels = new HashMap<>();
              for (Row row : rows) {
                labels.put(row.getString("name"), labels(row.getJsonObject("labels")));
              }
              return CalendarGate.of(calendar, labels, now);
            });
  }

  static Map<String, String> labels(JsonObject json) {
    Map<String, String> out = new HashMap<>();
    if (json != null) {
      json.forEach(e -> out.put(e.getKey(), String.valueOf(e.getValue())));
    }
    return out;
  }

  private static <T> T parse(Row row, Function<JsonObject, T> parser) {
    Object spec = row.getValue("spec");
    try {
      return parser.apply(spec instanceof JsonObject o ? o : new JsonObject(String.valueOf(spec)));
    } catch (RuntimeException e) {
      LOG.warn("calendar entry {} skipped: {}", row.getString("name"), e.getMessage());
      return null;
    }
  }
}
