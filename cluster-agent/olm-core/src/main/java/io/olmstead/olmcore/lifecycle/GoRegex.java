package io.olmstead.olmcore.lifecycle;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Translates a Go RE2 pattern (what the API server evaluates for a CRD {@code pattern}) into an
 * equivalent {@link java.util.regex.Pattern} source. The syntaxes agree except inside character
 * classes, where RE2 reads {@code [} and {@code &&} literally and supports POSIX classes ({@code
 * [[:alpha:]]}), while Java would nest, intersect, or silently read the POSIX name as a set of
 * letters.
 */
final class GoRegex {

  private static final Map<String, String> POSIX =
      Map.ofEntries(
          Map.entry("alnum", "\\p{Alnum}"),
          Map.entry("alpha", "\\p{Alpha}"),
          Map.entry("ascii", "\\p{ASCII}"),
          Map.entry("blank", "\\p{Blank}"),
          Map.entry("cntrl", "\\p{Cntrl}"),
          Map.entry("digit", "\\p{Digit}"),
          Map.entry("graph", "\\p{Graph}"),
          Map.entry("lower", "\\p{Lower}"),
          Map.entry("print", "\\p{Print}"),
          Map.entry("punct", "\\p{Punct}"),
          Map.entry("space", "\\s"),
          Map.entry("upper", "\\p{Upper}"),
          Map.entry("word", "\\w"),
          Map.entry("xdigit", "\\p{XDigit}"));

  private GoRegex() {}

  /** The Java source for {@code re2}, or empty when Java still cannot compile it. */
  static Optional<String> toJava(String re2) {
    String java = translate(re2);
    try {
      Pattern.compile(java);
      return Optional.of(java);
    } catch (PatternSyntaxException e) {
      return Optional.empty();
    }
  }

  static String translate(String re2) {
    StringBuilder out = new StringBuilder(re2.length() + 8);
    boolean inClass = false;
    int classStart = -1;
    for (int i = 0; i < re2.length(); i++) {
      char c = re2.charAt(i);
      if (c == '\\' && i + 1 < re2.length()) {
        out.append(c).append(re2.charAt(++i));
        continue;
      }
      if (!inClass) {
        if (c == '[') {
          inClass = true;
          classStart = i;
        }
        out.append(c);
        continue;
      }
      boolean first =
          i == classStart + 1 || (i == classStart + 2 && re2.charAt(classStart + 1) == '^');
      if (c == ']' && !first) {
        inClass = false;
        out.append(c);
      } else if (c == '[' && re2.startsWith("[:", i)) {
        int end = re2.indexOf(":]", i + 2);
        String name = end < 0 ? null : re2.substring(i + 2, end);
        boolean negated = name != null && name.startsWith("^");
        String cls = name == null ? null : POSIX.get(negated ? name.substring(1) : name);
        if (cls != null) {
          out.append(negated ? negate(cls) : cls);
          i = end + 1;
        } else {
          out.append("\\[");
        }
      } else if (c == '[' || c == '&' || (c == ']' && first)) {
        out.append('\\').append(c);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String negate(String cls) {
    return cls.startsWith("\\p") ? "\\P" + cls.substring(2) : cls.toUpperCase(Locale.ROOT);
  }
}
