package io.olmstead.olmcore.semver;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a wildcard comparator into plain comparators with blang v4's rules, quirks included,
 * because OLM evaluates catalog ranges with blang and the same catalog must give the same upgrade
 * edges here.
 *
 * <pre>
 *   >=1.2.x -> >=1.2.0          >=1.x -> >=1.0.0
 *   <=1.2.x -> <1.3.0           <=1.x -> <2.0.0
 *   >1.2.x  -> >=1.3.0          >1.x  -> >=2.0.0
 *   <1.2.x  -> <1.2.0           <1.x  -> <1.0.0
 *   !=1.2.x -> <1.2.0 >=1.3.0   !=1.x -> <1.0.0 >=2.0.0
 *   1.2.x   -> >=1.2.0 <1.3.0   1.x   -> >=1.0.0 <2.0.0
 * </pre>
 *
 * Quirks kept from blang: {@code 1.x.x} is typed by its last position, so it behaves like {@code
 * 1.0.x}; {@code !=1.2.x} becomes two ANDed comparators and therefore matches no version at all. An
 * {@code x} that is not the last position (e.g. {@code >=1.x.3}) becomes {@code 0} for {@code >= <}
 * and is an error for operators that need an incremented bound.
 */
final class WildcardExpansion {

  private enum Kind {
    NONE,
    MINOR,
    PATCH
  }

  private WildcardExpansion() {}

  /**
   * True when the version core (before any pre-release or build part) holds an {@code x} wildcard.
   */
  static boolean isWildcard(String v) {
    int coreEnd = coreEnd(v);
    int i = v.indexOf(".x");
    return i >= 0 && i < coreEnd;
  }

  private static int coreEnd(String v) {
    for (int i = 0; i < v.length(); i++) {
      if (v.charAt(i) == '-' || v.charAt(i) == '+') {
        return i;
      }
    }
    return v.length();
  }

  /**
   * Accepts {@code X} and {@code *} as {@code x} in the minor and patch positions of the version
   * core.
   */
  static String normalize(String v) {
    if (v.indexOf('X') < 0 && v.indexOf('*') < 0) {
      return v;
    }
    int coreEnd = coreEnd(v);
    List<String> core = split(v.substring(0, coreEnd));
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < core.size(); i++) {
      String id = core.get(i);
      if (i > 0) {
        sb.append('.');
      }
      sb.append(i > 0 && i < 3 && (id.equals("X") || id.equals("*")) ? "x" : id);
    }
    return sb.append(v, coreEnd, v.length()).toString();
  }

  /**
   * The first numeric core identifier with a leading zero, or null. Checked up front because
   * blang's increment would silently accept {@code <=01.x} while rejecting {@code >=01.x}.
   */
  static String leadingZero(String v) {
    int coreEnd = coreEnd(v);
    for (String id : split(v.substring(0, coreEnd))) {
      if (id.length() > 1 && id.charAt(0) == '0' && id.chars().allMatch(Character::isDigit)) {
        return id;
      }
    }
    return null;
  }

  /**
   * Expands {@code op + v} where {@code v} contains {@code ".x"}; an empty version marks blang's
   * failure case.
   */
  static List<String[]> expand(String op, String v) {
    List<String> parts = split(v);
    Kind kind = Kind.NONE;
    if (parts.get(parts.size() - 1).equals("x")) {
      kind = parts.size() == 2 ? Kind.MINOR : parts.size() == 3 ? Kind.PATCH : Kind.NONE;
    }
    String flat = replaceFirst(replaceFirst(v, ".x.x", ".x"), ".x", ".0");
    if (split(flat).size() == 2) {
      flat = flat + ".0";
    }
    List<String[]> out = new ArrayList<>(2);
    switch (op) {
      case ">":
        out.add(new String[] {">=", increment(flat, kind)});
        break;
      case ">=":
        out.add(new String[] {">=", flat});
        break;
      case "<":
        out.add(new String[] {"<", flat});
        break;
      case "<=":
        out.add(new String[] {"<", increment(flat, kind)});
        break;
      case "!=":
      case "!":
        out.add(new String[] {"<", flat});
        out.add(new String[] {">=", increment(flat, kind)});
        break;
      default: // "", "=", "=="; other operators were rejected by the caller
        out.add(new String[] {">=", flat});
        out.add(new String[] {"<", increment(flat, kind)});
        break;
    }
    return out;
  }

  private static String increment(String flat, Kind kind) {
    if (kind == Kind.NONE) {
      return "";
    }
    List<String> parts = split(flat);
    int index = kind == Kind.MINOR ? 0 : 1;
    if (parts.size() <= index) {
      return "";
    }
    try {
      parts.set(index, Long.toString(Math.addExact(Long.parseLong(parts.get(index)), 1L)));
    } catch (NumberFormatException | ArithmeticException e) {
      return "";
    }
    return String.join(".", parts);
  }

  private static String replaceFirst(String s, String target, String replacement) {
    int i = s.indexOf(target);
    return i < 0 ? s : s.substring(0, i) + replacement + s.substring(i + target.length());
  }

  private static List<String> split(String s) {
    List<String> out = new ArrayList<>(4);
    int start = 0;
    for (int i = 0; i <= s.length(); i++) {
      if (i == s.length() || s.charAt(i) == '.') {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    return out;
  }
}
