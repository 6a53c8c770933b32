package io.olmstead.olmcore.tar;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Path rules for layer entries: relative, no escaping {@code ..}, links resolved inside the root.
 */
public final class TarPaths {

  private TarPaths() {}

  /**
   * The entry's path without {@code ./} and trailing slashes, null for the root itself. Absolute
   * paths and any {@code ..} segment are refused, as a runtime extracting into a root must never
   * write outside it.
   */
  public static String normalise(String name) throws TarException {
    if (name.startsWith("/") || name.contains("\\")) {
      throw new TarException("layer entry " + name + " has an absolute or non-POSIX path");
    }
    StringBuilder out = new StringBuilder();
    for (String seg : name.split("/")) {
      if (seg.isEmpty() || seg.equals(".")) {
        continue;
      }
      if (seg.equals("..")) {
        throw new TarException("layer entry " + name + " escapes the image root (..)");
      }
      out.append(out.length() == 0 ? "" : "/").append(seg);
    }
    return out.length() == 0 ? null : out.toString();
  }

  /** A link target resolved inside the root, or null when it escapes it. */
  static String normaliseLink(String target) {
    Deque<String> parts = new ArrayDeque<>();
    for (String seg : target.split("/")) {
      if (seg.isEmpty() || seg.equals(".")) {
        continue;
      }
      if (seg.equals("..")) {
        if (parts.isEmpty()) {
          return null;
        }
        parts.removeLast();
      } else {
        parts.addLast(seg);
      }
    }
    return String.join("/", parts);
  }

  static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i < 0 ? "" : path.substring(0, i);
  }

  static String join(String dir, String rel) {
    return dir.isEmpty() ? rel : dir + "/" + rel;
  }
}
