package io.olmstead.controlplane.analysis;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts {@code $cluster}, {@code $wave}, {@code $namespace} and {@code $package} into a query, each
 * value escaped for a PromQL string literal in double or single quotes (so a value cannot end the
 * literal and add to the query).
 */
public final class PromQl {
  private static final Pattern VARIABLE = Pattern.compile("\\$(cluster|wave|namespace|package)\\b");

  private PromQl() {}

  /**
   * {@code query} with each variable replaced by its escaped value ({@code values} by name without
   * the dollar).
   */
  public static String substitute(String query, Map<String, String> values) {
    Matcher m = VARIABLE.matcher(query);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.getOrDefault(m.group(1), "");
      m.appendReplacement(out, Matcher.quoteReplacement(escape(value)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** {@code value} escaped as the inside of a PromQL (Go) string literal. */
  public static String escape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\'' -> out.append("\\'");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
