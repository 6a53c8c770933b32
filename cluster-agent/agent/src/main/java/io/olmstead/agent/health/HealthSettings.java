package io.olmstead.agent.health;

import io.olmstead.agent.config.ConfigException;
import java.util.Map;

/**
 * Where the agent answers its probes: {@code OLMSTEAD_AGENT_HEALTH_PORT} (default 8081; 0 turns the
 * server off).
 */
public record HealthSettings(int port) {
  public static final String PORT = "OLMSTEAD_AGENT_HEALTH_PORT";
  public static final int DEFAULT_PORT = 8081;

  public static HealthSettings fromMap(Map<String, String> env) throws ConfigException {
    String text = env.get(PORT);
    if (text == null || text.isBlank()) {
      return new HealthSettings(DEFAULT_PORT);
    }
    try {
      int port = Integer.parseInt(text.trim());
      if (port < 0 || port > 65_535) {
        throw new ConfigException(PORT + " must be between 0 (off) and 65535, not " + port);
      }
      return new HealthSettings(port);
    } catch (NumberFormatException e) {
      throw new ConfigException(
          PORT + " must be a port number (0 turns the probes off), not '" + text + "'");
    }
  }

  public boolean enabled() {
    return port != 0;
  }
}
