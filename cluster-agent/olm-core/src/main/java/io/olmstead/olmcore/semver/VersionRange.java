package io.olmstead.olmcore.semver;

import java.util.ArrayList;
import java.util.List;

/**
 * A version range with the syntax and meaning of blang/semver v4 {@code ParseRange}, which OLM uses
 * for {@code skipRange} and {@code olm.package.required}.
 *
 * <p>Comparators {@code < <= > >= = == != !} (none means {@code =}); a space is AND, {@code ||} is
 * OR (AND binds tighter); spaces after an operator are allowed ({@code ">= 1.0.0"}); {@code x}
 * wildcards are expanded exactly like blang (see {@link WildcardExpansion}). Build metadata never
 * affects a comparison and pre-releases compare normally ({@code <1.0.3} contains {@code
 * 1.0.3-rc.1}).
 *
 * <p>Deliberate differences from blang, all of which only turn silently surprising input into an
 * error or accept a documented wildcard spelling: {@code X} and {@code *} are accepted as {@code x}
 * in the minor and patch positions; an unknown operator on a wildcard ({@code ^1.x}, {@code
 * ~1.2.x}) is an error where blang silently treats it as {@code =}; a hyphen range ({@code 1.0.0 -
 * 2.0.0}) and single-character tokens are errors where blang silently drops the token; {@code a ||
 * || b} is an error where blang panics; an {@code .x} inside pre-release or build metadata ({@code
 * 1.0.0-rc.x86}) is plain text where blang rewrites it.
 */
public final class VersionRange {

  /** A comparison operator of a single comparator. */
  enum Op {
    EQ("="),
    NE("!="),
    GT(">"),
    GE(">="),
    LT("<"),
    LE("<=");

    final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    boolean test(int cmp) {
      switch (this) {
        case EQ:
          return cmp == 0;
        case NE:
          return cmp != 0;
        case GT:
          return cmp > 0;
        case GE:
          return cmp >= 0;
        case LT:
          return cmp < 0;
        default:
          return cmp <= 0;
      }
    }

    static Op of(String s) {
      switch (s) {
        case "":
        case "=":
        case "==":
          return EQ;
        case "!":
        case "!=":
          return NE;
        case ">":
          return GT;
        case ">=":
          return GE;
        case "<":
          return LT;
        case "<=":
          return LE;
        default:
          return null;
      }
    }
  }

  /** One {@code <op><version>} test. */
  record Comparator(Op op, Version version) {
    boolean matches(Version v) {
      return op.test(v.compareTo(version));
    }

    @Override
    public String toString() {
      return op.symbol + version;
    }
  }

  private final String text;

  /** OR of AND groups. */
  private final Comparator[][] alternatives;

  private VersionRange(String text, Comparator[][] alternatives) {
    this.text = text;
    this.alternatives = alternatives;
  }

  /** Parses a blang v4 range; every syntax error is a {@link VersionException}. */
  public static VersionRange parse(String s) throws VersionException {
    if (s == null) {
      throw new VersionException("Could not parse Range: range is null");
    }
    List<String> tokens = tokenize(s);
    if (tokens.isEmpty()) {
      throw new VersionException("Could not parse Range \"" + s + "\": range is empty");
    }
    List<Comparator[]> groups = new ArrayList<>(2);
    List<Comparator> current = new ArrayList<>(4);
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      if (token.equals("||")) {
        if (i == 0) {
          throw new VersionException(
              "Could not parse Range \"" + s + "\": First element in range is '||'");
        }
        if (current.isEmpty()) {
          throw new VersionException(
              "Could not parse Range \"" + s + "\": Empty range between '||'");
        }
        groups.add(current.toArray(new Comparator[0]));
        current.clear();
        continue;
      }
      current.addAll(comparators(token));
    }
    if (current.isEmpty()) {
      throw new VersionException(
          "Could not parse Range \"" + s + "\": Last element in range is '||'");
    }
    groups.add(current.toArray(new Comparator[0]));
    return new VersionRange(s, groups.toArray(new Comparator[0][]));
  }

  /** True when {@code v} satisfies every comparator of at least one {@code ||} alternative. */
  public boolean contains(Version v) {
    if (v == null) {
      return false;
    }
    for (Comparator[] group : alternatives) {
      boolean all = true;
      for (Comparator c : group) {
        if (!c.matches(v)) {
          all = false;
          break;
        }
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  /**
   * The range after wildcard expansion, e.g. {@code ">=1.2.0 <1.3.0 || >=2.0.0"} for {@code "1.2.x
   * || >=2.0.0"}.
   */
  public String expandedForm() {
    StringBuilder sb = new StringBuilder();
    for (int g = 0; g < alternatives.length; g++) {
      if (g > 0) {
        sb.append(" || ");
      }
      for (int i = 0; i < alternatives[g].length; i++) {
        if (i > 0) {
          sb.append(' ');
        }
        sb.append(alternatives[g][i]);
      }
    }
    return sb.toString();
  }

  List<List<Comparator>> alternatives() {
    List<List<Comparator>> out = new ArrayList<>();
    for (Comparator[] group : alternatives) {
      out.add(List.of(group));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VersionRange && ((VersionRange) o).text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The original text. */
  @Override
  public String toString() {
    return text;
  }

  /**
   * Splits on spaces like blang: a space right after {@code < > =} does not end a token, so {@code
   * ">= 1.0.0"} is one token; spaces never stay inside a token.
   */
  static List<String> tokenize(String s) {
    List<String> tokens = new ArrayList<>(4);
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == ' ') {
        int n = cur.length();
        if (n > 0 && "<>=".indexOf(cur.charAt(n - 1)) < 0) {
          tokens.add(cur.toString());
          cur.setLength(0);
        }
      } else {
        cur.append(ch);
      }
    }
    if (cur.length() > 0) {
      tokens.add(cur.toString());
    }
    return tokens;
  }

  private static List<Comparator> comparators(String token) throws VersionException {
    int digit = 0;
    while (digit < token.length() && !Character.isDigit(token.charAt(digit))) {
      digit++;
    }
    if (digit == token.length()) {
      String why =
          token.equals("-")
              ? "hyphen ranges are not supported"
              : "Could not get version from string: \"" + token + "\"";
      throw new VersionException("Could not parse Range \"" + token + "\": " + why);
    }
    String opText = token.substring(0, digit);
    Op op = Op.of(opText);
    if (op == null) {
      throw new VersionException(
          "Could not parse Range \""
              + token
              + "\": Could not parse comparator \""
              + opText
              + "\" in \""
              + token
              + "\""
              + hint(opText));
    }
    String versionText = WildcardExpansion.normalize(token.substring(digit));
    List<String[]> parts;
    if (WildcardExpansion.isWildcard(versionText)) {
      String zero = WildcardExpansion.leadingZero(versionText);
      if (zero != null) {
        throw new VersionException(
            "Could not parse Range \""
                + token
                + "\": Could not parse version \""
                + versionText
                + "\": number must not contain leading zeroes \""
                + zero
                + "\"");
      }
      parts = WildcardExpansion.expand(opText, versionText);
    } else {
      parts = List.<String[]>of(new String[] {opText, versionText});
    }
    List<Comparator> out = new ArrayList<>(parts.size());
    for (String[] p : parts) {
      if (p[1].isEmpty()) {
        throw new VersionException(
            "Could not parse Range \""
                + token
                + "\": Could not get version from string: \""
                + p[0]
                + "\"");
      }
      try {
        out.add(new Comparator(Op.of(p[0]), Version.parse(p[1])));
      } catch (VersionException e) {
        throw new VersionException(
            "Could not parse Range \""
                + token
                + "\": Could not parse version \""
                + p[1]
                + "\" in \""
                + p[0]
                + p[1]
                + "\": "
                + e.getMessage());
      }
    }
    return out;
  }

  private static String hint(String op) {
    if (op.startsWith("^") || op.startsWith("~")) {
      return " (caret and tilde ranges are not supported)";
    }
    if (op.endsWith("v") || op.endsWith("V")) {
      return " (a leading \"v\" is not allowed)";
    }
    return "";
  }
}
