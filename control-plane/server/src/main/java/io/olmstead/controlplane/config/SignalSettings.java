package io.olmstead.controlplane.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thresholds of the subscription signals and cluster events: {@code OLMSTEAD_STUCK_AFTER} (a
 * cluster whose subscription has not been Succeeded for longer is stuck; default 30m), {@code
 * OLMSTEAD_DISCONNECTED_AFTER} (a cluster disconnected for longer is announced; default 5m) and
 * {@code OLMSTEAD_SIGNALS_INTERVAL} (how often the leader evaluates; default 30s). Durations are a
 * whole number with a unit ({@code 90s}, {@code 30m}, {@code 2h}) or ISO-8601 ({@code PT30M}).
 */
public record SignalSettings(Duration stuckAfter, Duration disconnectedAfter, Duration interval) {
  public static final String STUCK_AFTER = "OLMSTEAD_STUCK_AFTER";
  public static final String DISCONNECTED_AFTER = "OLMSTEAD_DISCONNECTED_AFTER";
  public static final String INTERVAL = "OLMSTEAD_SIGNALS_INTERVAL";
  public static final Set<String> ENVIRONMENT = Set.of(STUCK_AFTER, DISCONNECTED_AFTER, INTERVAL);
  private static final Pattern SHORT = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

  public static SignalSettings defaults() {
    return new SignalSettings(
        Duration.ofMinutes(30), Duration.ofMinutes(5), Duration.ofSeconds(30));
  }

  public static SignalSettings fromEnvironment(Map<String, String> env) {
    SignalSettings d = defaults();
    return new SignalSettings(
        duration(env, STUCK_AFTER, d.stuckAfter()),
        duration(env, DISCONNECTED_AFTER, d.disconnectedAfter()),
        duration(env, INTERVAL, d.interval()));
  }

  static Duration duration(Map<String, String> env, String name, Duration fallback) {
    String text = env.get(name);
    if (text == null || text.isBlank()) {
      return fallback;
    }
    String value = text.trim();
    Duration parsed = null;
    Matcher m = SHORT.matcher(value.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      parsed =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
    } else if (value.toUpperCase(Locale.ROOT).startsWith("P")) {
      try {
        parsed = Duration.parse(value.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        parsed = null;
      }
    }
    if (parsed == null) {
      throw new ConfigException(
          name, "'" + value + "' is not a duration (e.g. 90s, 30m, 2h or PT30M)");
    }
    if (parsed.toMillis() < 100 || parsed.compareTo(Duration.ofDays(30)) > 0) {
      throw new ConfigException(name, "'" + value + "' must be between 100ms and 30d");
    }
    return parsed;
  }
}
