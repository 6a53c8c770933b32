package io.olmstead.olmcore.fbc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code .indexignore} rules of a catalog tree: gitignore-like globs, each file scoped to its
 * directory. Supports comments, {@code !} negation, trailing {@code /} (directories only),
 * anchoring by a slash, {@code *}, {@code ?}, {@code **} and {@code [...]} classes. Paths use
 * {@code /} and are relative to the root.
 */
final class IndexIgnore {

  static final String FILE_NAME = ".indexignore";

  private record Rule(
      String dir, String pattern, boolean negate, boolean dirOnly, boolean anchored) {}

  private final List<Rule> rules = new ArrayList<>();

  /**
   * Collects the rules of every {@code .indexignore} among the given files (parents before
   * children).
   */
  static IndexIgnore of(Map<String, byte[]> files) {
    IndexIgnore ig = new IndexIgnore();
    files.keySet().stream()
        .filter(p -> p.equals(FILE_NAME) || p.endsWith("/" + FILE_NAME))
        .sorted((a, b) -> Integer.compare(depth(a), depth(b)))
        .forEach(
            p ->
                ig.addFile(
                    p.substring(0, p.length() - FILE_NAME.length()),
                    new String(files.get(p), StandardCharsets.UTF_8)));
    return ig;
  }

  void addFile(String dir, String content) {
    for (String raw : content.split("\r?\n")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      boolean negate = line.startsWith("!");
      if (negate) {
        line = line.substring(1);
      }
      boolean dirOnly = line.endsWith("/");
      if (dirOnly) {
        line = line.substring(0, line.length() - 1);
      }
      boolean anchored = line.contains("/");
      if (line.startsWith("/")) {
        line = line.substring(1);
      }
      // the backtracking matcher is exponential in '*' count: absurd patterns are dropped, not
      // matched
      if (!line.isEmpty()
          && line.length() <= 512
          && line.chars().filter(ch -> ch == '*').count() <= 12) {
        rules.add(new Rule(dir, line, negate, dirOnly, anchored));
      }
    }
  }

  /** True when the file is excluded; {@code .indexignore} files themselves always are. */
  boolean ignored(String path) {
    if (path.equals(FILE_NAME) || path.endsWith("/" + FILE_NAME)) {
      return true;
    }
    boolean ignored = false;
    for (Rule r : rules) {
      if (!path.startsWith(r.dir())) {
        continue;
      }
      if (matches(r, path.substring(r.dir().length()))) {
        ignored = !r.negate();
      }
    }
    return ignored;
  }

  private static boolean matches(Rule r, String rel) {
    String[] segs = rel.split("/");
    if (!r.anchored()) {
      for (int i = 0; i < segs.length; i++) {
        boolean isDir = i < segs.length - 1;
        if ((isDir || !r.dirOnly()) && glob(r.pattern(), 0, segs[i], 0)) {
          return true;
        }
      }
      return false;
    }
    int end = 0;
    for (int i = 0; i < segs.length; i++) {
      end += segs[i].length() + (i > 0 ? 1 : 0);
      boolean isDir = i < segs.length - 1;
      if ((isDir || !r.dirOnly()) && glob(r.pattern(), 0, rel.substring(0, end), 0)) {
        return true;
      }
    }
    return false;
  }

  /** Glob match: '*' and '?' stop at '/', '**' crosses it, '[...]' is a character class. */
  static boolean glob(String p, int pi, String s, int si) {
    while (pi < p.length()) {
      char c = p.charAt(pi);
      if (c == '*') {
        boolean dbl = pi + 1 < p.length() && p.charAt(pi + 1) == '*';
        int next = dbl ? pi + 2 : pi + 1;
        if (dbl && next < p.length() && p.charAt(next) == '/') {
          // "**/" also matches zero directories
          if (glob(p, next + 1, s, si)) {
            return true;
          }
        }
        for (int k = si; k <= s.length(); k++) {
          if (glob(p, next, s, k)) {
            return true;
          }
          if (k < s.length() && s.charAt(k) == '/' && !dbl) {
            return false;
          }
        }
        return false;
      }
      if (si >= s.length()) {
        return false;
      }
      char sc = s.charAt(si);
      if (c == '?') {
        if (sc == '/') {
          return false;
        }
      } else if (c == '[') {
        int close = p.indexOf(']', pi + 2);
        if (close < 0) {
          if (sc != '[') {
            return false;
          }
        } else {
          if (!inClass(p.substring(pi + 1, close), sc)) {
            return false;
          }
          pi = close;
        }
      } else if (c == '\\' && pi + 1 < p.length()) {
        pi++;
        if (p.charAt(pi) != sc) {
          return false;
        }
      } else if (c != sc) {
        return false;
      }
      pi++;
      si++;
    }
    return si == s.length();
  }

  private static boolean inClass(String cls, char c) {
    boolean negate = !cls.isEmpty() && (cls.charAt(0) == '!' || cls.charAt(0) == '^');
    int i = negate ? 1 : 0;
    boolean hit = false;
    while (i < cls.length()) {
      char lo = cls.charAt(i);
      if (i + 2 < cls.length() && cls.charAt(i + 1) == '-') {
        if (c >= lo && c <= cls.charAt(i + 2)) {
          hit = true;
        }
        i += 3;
      } else {
        if (c == lo) {
          hit = true;
        }
        i++;
      }
    }
    return hit != negate;
  }

  private static int depth(String p) {
    int d = 0;
    for (int i = 0; i < p.length(); i++) {
      if (p.charAt(i) == '/') {
        d++;
      }
    }
    return d;
  }
}
