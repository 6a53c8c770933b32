package io.olmstead.controlplane.config;

/**
 * A setting (flag or environment variable) has a bad value; the message names the setting and what
 * is wrong.
 */
public final class ConfigException extends RuntimeException {
  private final String setting;

  public ConfigException(String setting, String problem) {
    super(setting + ": " + problem);
    this.setting = setting;
  }

  public String setting() {
    return setting;
  }
}
