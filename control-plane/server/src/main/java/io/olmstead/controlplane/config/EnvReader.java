package io.olmstead.controlplane.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads typed values from an environment map and names the variable in every error. */
public final class EnvReader {
  private final Map<String, String> env;

  public EnvReader(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  public Optional<String> string(String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  public int port(String name, int fallback) {
    return string(name).map(v -> parsePort(name, v)).orElse(fallback);
  }

  public int positiveInt(String name, int fallback) {
    return string(name).map(v -> parsePositive(name, v)).orElse(fallback);
  }

  public long positiveLong(String name, long fallback) {
    return string(name).map(v -> parsePositiveLong(name, v)).orElse(fallback);
  }

  public boolean bool(String name, boolean fallback) {
    return string(name).map(v -> parseBool(name, v)).orElse(fallback);
  }

  public static int parsePort(String setting, String value) {
    try {
      int port = Integer.parseInt(value.trim());
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(setting, "'" + value + "' is not a port number (0-65535)");
  }

  private static int parsePositive(String setting, String value) {
    long parsed = parsePositiveLong(setting, value);
    if (parsed > Integer.MAX_VALUE) {
      throw new ConfigException(setting, "'" + value + "' is too large");
    }
    return (int) parsed;
  }

  private static long parsePositiveLong(String setting, String value) {
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed > 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(setting, "'" + value + "' is not a positive whole number");
  }

  private static boolean parseBool(String setting, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes" -> true;
      case "false", "0", "no" -> false;
      default -> throw new ConfigException(setting, "'" + value + "' is not true or false");
    };
  }
}
