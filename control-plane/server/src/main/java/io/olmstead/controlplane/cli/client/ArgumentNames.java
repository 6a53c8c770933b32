package io.olmstead.controlplane.cli.client;

import io.olmstead.controlplane.problem.ValueShapes;
import java.util.regex.Pattern;

/**
 * The names and ids a command puts into an API path, checked first against the spec's patterns
 * (ArgumentNamesTest holds them equal to openapi.yaml's): a bad one is a usage line naming the
 * argument and what a valid one looks like in the words the API's own 400 uses ({@link
 * ValueShapes}).
 */
final class ArgumentNames {
  /** openapi.yaml {@code Name}: a DNS-1123 label, at most 63 characters. */
  static final Pattern NAME = Pattern.compile(ValueShapes.NAME_PATTERN);

  static final int NAME_MAX = ValueShapes.NAME_MAX;

  /** openapi.yaml {@code RolloutIdPath}. */
  static final Pattern ROLLOUT_ID = Pattern.compile(ValueShapes.ROLLOUT_ID_PATTERN);

  private ArgumentNames() {}

  /**
   * {@code value} when it may name a {@code kind} (cluster, subscription...); else a usage error.
   */
  static String name(String kind, String value) {
    if (value.length() > NAME_MAX || !NAME.matcher(value).matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          "the " + kind + " NAME '" + ValueShapes.shown(value) + "' must be " + ValueShapes.name());
    }
    return value;
  }

  /** {@code value} when it may be a rollout id; else a usage error. */
  static String rolloutId(String value) {
    if (!ROLLOUT_ID.matcher(value).matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          "the rollout ID '"
              + ValueShapes.shown(value)
              + "' must be "
              + ValueShapes.rolloutId()
              + ", as olmstead get rollouts lists them");
    }
    return value;
  }
}
