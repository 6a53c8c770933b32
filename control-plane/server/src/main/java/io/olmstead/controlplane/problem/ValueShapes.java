package io.olmstead.controlplane.problem;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a value must look like, in words a user reads, derived from a parameter's schema in
 * openapi.yaml (pattern, length, range, enum): the API's 400 for a bad path or query parameter and
 * the CLI's usage error for a bad name say the same thing.
 */
public final class ValueShapes {
  /** openapi.yaml {@code Name}: a DNS-1123 label. */
  public static final String NAME_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

  public static final int NAME_MAX = 63;

  /** openapi.yaml {@code RolloutIdPath}. */
  public static final String ROLLOUT_ID_PATTERN = "^ro-[0-9a-f-]{1,40}$";

  private static final String LABEL_ENDS = "starting and ending with a letter or digit";

  /**
   * The spec's parameter patterns in words; a counted entry is preceded by the schema's length
   * ("1-63 lower-case letters..."), the others fix their length themselves.
   */
  private static final Map<String, Words> PATTERNS =
      Map.of(
          NAME_PATTERN,
          new Words(
              true, "lower-case letters, digits or '-', " + LABEL_ENDS + " (a DNS-1123 label)"),
          ROLLOUT_ID_PATTERN,
          new Words(false, "ro- followed by up to 40 hex digits or '-'"),
          "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
          new Words(false, "a UUID in lower-case hex (8-4-4-4-12 digits)"),
          "^[0-9a-f]{16}$",
          new Words(false, "16 lower-case hex digits"),
          "^sha256:[a-f0-9]{64}$",
          new Words(false, "sha256: followed by 64 lower-case hex digits"),
          "^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$",
          new Words(true, "lower-case letters, digits, '-' or '.', " + LABEL_ENDS),
          "^[a-z0-9-]+$",
          new Words(true, "lower-case letters, digits or '-'"),
          "^[A-Za-z0-9_-]+$",
          new Words(true, "letters, digits, '-' or '_'"),
          "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(,[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
          new Words(true, "characters: DNS-1123 labels separated by ','"),
          "^-?(name|(version|phase):[a-z0-9]([-a-z0-9]*[a-z0-9])?)$",
          new Words(
              false, "name, version:SUBSCRIPTION or phase:SUBSCRIPTION, '-' first to reverse"));

  private ValueShapes() {}

  /** The words for a name (cluster, subscription, catalog...): a DNS-1123 label. */
  public static String name() {
    return words(NAME_PATTERN, 1, NAME_MAX);
  }

  /** The words for a rollout id. */
  public static String rolloutId() {
    return words(ROLLOUT_ID_PATTERN, null, null);
  }

  /** Whether {@code pattern} has words here (a test holds every parameter pattern to it). */
  public static boolean known(String pattern) {
    return PATTERNS.containsKey(pattern);
  }

  /**
   * What a value of {@code schema} (a resolved JSON schema: type, pattern, minLength, maxLength,
   * minimum, maximum, enum) must be, e.g. "1-63 lower-case letters, digits or '-', ...".
   */
  public static String describe(JsonObject schema) {
    JsonArray values = schema.getJsonArray("enum");
    if (values != null && !values.isEmpty()) {
      return "one of " + values.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
    String type = schema.getString("type", "string");
    if (type.equals("integer") || type.equals("number")) {
      return number(type, schema.getNumber("minimum"), schema.getNumber("maximum"));
    }
    if (type.equals("boolean")) {
      return "true or false";
    }
    return words(
        schema.getString("pattern"),
        schema.getInteger("minLength"),
        schema.getInteger("maxLength"));
  }

  private static String number(String type, Number min, Number max) {
    String kind = type.equals("integer") ? "an integer" : "a number";
    if (min != null && max != null) {
      return kind + " from " + min + " to " + max;
    }
    if (min != null) {
      return kind + " of at least " + min;
    }
    return max == null ? kind : kind + " of at most " + max;
  }

  private static String words(String pattern, Integer min, Integer max) {
    Words known = pattern == null ? null : PATTERNS.get(pattern);
    if (known != null && !known.counted()) {
      return known.text();
    }
    String length = length(min, max);
    if (known != null) {
      return length.isEmpty() ? known.text() : length + " " + known.text();
    }
    String characters = length.isEmpty() ? "a string" : length + " characters";
    return pattern == null ? characters : characters + " matching " + pattern;
  }

  private static String length(Integer min, Integer max) {
    int from = min == null ? 0 : min;
    if (max != null) {
      return from > 0 ? from + "-" + max : "at most " + max;
    }
    return from > 1 ? "at least " + from : "";
  }

  /** A value as the client sent it, fit to echo on one line: control characters and length cut. */
  public static String shown(String value) {
    String line = value.replaceAll("\\p{Cntrl}", "?");
    return line.length() > 80 ? line.substring(0, 77) + "..." : line;
  }

  private record Words(boolean counted, String text) {}
}
