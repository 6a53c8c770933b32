package io.olmstead.agent.config;

/**
 * A configuration value is missing or invalid; the message names the variable and what is expected.
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
