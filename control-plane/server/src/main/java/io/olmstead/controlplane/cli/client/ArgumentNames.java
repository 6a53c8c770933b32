package io.olmstead.controlplane.cli.client;

import java.util.regex.Pattern;

/**
 * The names and ids a command puts into an API path, checked first against the spec's patterns
 * (ArgumentNamesTest holds them equal to openapi.yaml's): a bad one is a usage line naming the
 * argument and what a valid one looks like, as for a context name, rather than the request
 * validator's pattern.
 */
final class ArgumentNames {
  /** openapi.yaml {@code Name}: a DNS-1123 label, at most 63 characters. */
  static final Pattern NAME = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");

  static final int NAME_MAX = 63;

  /** openapi.yaml {@code RolloutIdPath}. */
  static final Pattern ROLLOUT_ID = Pattern.compile("^ro-[0-9a-f-]{1,40}$");

  private ArgumentNames() {}

  /**
   * {@code value} when it may name a {@code kind} (cluster, subscription...); else a usage error.
   */
  static String name(String kind, String value) {
    if (value.length() > NAME_MAX || !NAME.matcher(value).matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          "the "
              + kind
              + " NAME '"
              + shown(value)
              + "' must be 1-63 lower-case letters, digits or '-', "
              + "starting and ending with a letter or digit (a DNS-1123 label)");
    }
    return value;
  }

  /** {@code value} when it may be a rollout id; else a usage error. */
  static String rolloutId(String value) {
    if (!ROLLOUT_ID.matcher(value).matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          "the rollout ID '"
              + shown(value)
              + "' must be ro- followed by up to 40 hex digits or '-', "
              + "as olmstead get rollouts lists them");
    }
    return value;
  }

  /** The argument as typed, cut when long (it is echoed on one line). */
  private static String shown(String value) {
    String line = value.replaceAll("\\p{Cntrl}", "?");
    return line.length() > 80 ? line.substring(0, 77) + "..." : line;
  }
}
