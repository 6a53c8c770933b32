package io.olmstead.controlplane.rollout;

import io.vertx.core.json.JsonObject;

/**
 * A rollout's preflight settings, part of its strategy: {@code preflight} {@code Block} (the
 * default: a cluster whose check fails is held), {@code Warn} (it is approved, its findings noted)
 * or {@code Off} (no check); and {@code preflightTimeoutSeconds}, how long a connected cluster's
 * agent may take to answer before the cluster is held as {@code PreflightUnavailable} (in Block and
 * Warn alike: never approved without an answer).
 */
public record PreflightPolicy(Mode mode, int timeoutSeconds) {
  /** What a failing check does. */
  public enum Mode {
    Block,
    Warn,
    Off
  }

  public static final int DEFAULT_TIMEOUT_SECONDS = 60;
  public static final PreflightPolicy DEFAULT =
      new PreflightPolicy(Mode.Block, DEFAULT_TIMEOUT_SECONDS);

  /**
   * Reads {@code preflight} and {@code preflightTimeoutSeconds} of a strategy; a bad value names
   * its field.
   */
  static PreflightPolicy fromStrategy(JsonObject strategy) {
    Object mode = strategy.getValue("preflight");
    Mode parsed = Mode.Block;
    if (mode != null) {
      try {
        parsed = Mode.valueOf(String.valueOf(mode));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("preflight must be Block, Warn or Off");
      }
    }
    Object timeout = strategy.getValue("preflightTimeoutSeconds");
    int seconds = DEFAULT_TIMEOUT_SECONDS;
    if (timeout != null) {
      if (!(timeout instanceof Integer n) || n < 1 || n > 3600) {
        throw new IllegalArgumentException("preflightTimeoutSeconds must be between 1 and 3600");
      }
      seconds = n;
    }
    return new PreflightPolicy(parsed, seconds);
  }

  /** Adds the settings to a strategy's JSON form. */
  void writeTo(JsonObject strategy) {
    strategy.put("preflight", mode.name()).put("preflightTimeoutSeconds", timeoutSeconds);
  }
}
