package io.olmstead.olmcore.semver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A strict semantic version (semver 2.0, as blang/semver v4 {@code Parse} accepts it) with semver
 * precedence.
 *
 * <p>Build metadata is kept for {@link #toString()} but ignored by {@link #compareTo}, {@link
 * #equals} and {@link #hashCode}, so two versions differing only in build metadata are equal.
 * Parsing is a hand-written scanner because it runs for every bundle of a catalog (thousands per
 * index).
 */
public final class Version implements Comparable<Version> {

  private static final String[] NO_IDS = new String[0];
  private static final long[] NO_NUMS = new long[0];

  /** Marks an alphanumeric pre-release identifier in {@link #preNums}. */
  private static final long ALPHANUMERIC = -1L;

  private final long major;
  private final long minor;
  private final long patch;
  private final String[] pre;
  private final long[] preNums;
  private final String[] build;
  private final String text;
  private int hash;

  private Version(
      long major,
      long minor,
      long patch,
      String[] pre,
      long[] preNums,
      String[] build,
      String text) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.pre = pre;
    this.preNums = preNums;
    this.build = build;
    this.text = text;
  }

  /**
   * Parses strict semver 2.0: {@code MAJOR.MINOR.PATCH[-PRE][+BUILD]}, no leading {@code v}, no
   * leading zeros.
   */
  public static Version parse(String s) throws VersionException {
    if (s == null || s.isEmpty()) {
      throw new VersionException("Version string empty");
    }
    int dot1 = s.indexOf('.');
    int dot2 = dot1 < 0 ? -1 : s.indexOf('.', dot1 + 1);
    if (dot2 < 0) {
      throw new VersionException("No Major.Minor.Patch elements found");
    }
    long major = parseCore(s, 0, dot1, "major");
    long minor = parseCore(s, dot1 + 1, dot2, "minor");
    int end = s.length();
    int plus = s.indexOf('+', dot2 + 1);
    int coreEnd = plus < 0 ? end : plus;
    int dash = s.indexOf('-', dot2 + 1);
    if (dash > coreEnd) {
      dash = -1; // a '-' inside build metadata is not a pre-release separator
    }
    int patchEnd = dash < 0 ? coreEnd : dash;
    long patch = parseCore(s, dot2 + 1, patchEnd, "patch");

    String[] pre = NO_IDS;
    long[] preNums = NO_NUMS;
    if (dash >= 0) {
      pre = split(s, dash + 1, coreEnd);
      preNums = new long[pre.length];
      for (int i = 0; i < pre.length; i++) {
        preNums[i] = parsePreRelease(pre[i]);
      }
    }
    String[] build = NO_IDS;
    if (plus >= 0) {
      build = split(s, plus + 1, end);
      for (String id : build) {
        if (id.isEmpty()) {
          throw new VersionException("Build meta data is empty");
        }
        if (!isAlphanumeric(id, 0, id.length())) {
          throw new VersionException(
              "Invalid character(s) found in build meta data \"" + id + "\"");
        }
      }
    }
    return new Version(major, minor, patch, pre, preNums, build, s);
  }

  /** Like {@link #parse} but empty instead of an exception for invalid input. */
  public static Optional<Version> tryParse(String s) {
    try {
      return Optional.of(parse(s));
    } catch (VersionException e) {
      return Optional.empty();
    }
  }

  /** A release version without pre-release or build metadata. */
  public static Version of(long major, long minor, long patch) {
    if (major < 0 || minor < 0 || patch < 0) {
      throw new IllegalArgumentException("negative version component");
    }
    return new Version(
        major, minor, patch, NO_IDS, NO_NUMS, NO_IDS, major + "." + minor + "." + patch);
  }

  /**
   * The major number, saturated at {@link Integer#MAX_VALUE} (see {@link #majorLong()} for the
   * exact value).
   */
  public int major() {
    return saturate(major);
  }

  /** The minor number, saturated at {@link Integer#MAX_VALUE}. */
  public int minor() {
    return saturate(minor);
  }

  /** The patch number, saturated at {@link Integer#MAX_VALUE}. */
  public int patch() {
    return saturate(patch);
  }

  public long majorLong() {
    return major;
  }

  public long minorLong() {
    return minor;
  }

  public long patchLong() {
    return patch;
  }

  /** Pre-release identifiers, empty for a release. */
  public List<String> preRelease() {
    return List.of(pre);
  }

  /** Build metadata identifiers (no effect on precedence). */
  public List<String> build() {
    return List.of(build);
  }

  public boolean isPreRelease() {
    return pre.length > 0;
  }

  /**
   * This version with the major number incremented and minor/patch zeroed (no pre-release, no
   * build).
   */
  Version nextMajor() {
    return of(major + 1, 0, 0);
  }

  /** This version with the minor number incremented and patch zeroed (no pre-release, no build). */
  Version nextMinor() {
    return of(major, minor + 1, 0);
  }

  @Override
  public int compareTo(Version o) {
    int c = Long.compare(major, o.major);
    if (c != 0) {
      return c;
    }
    c = Long.compare(minor, o.minor);
    if (c != 0) {
      return c;
    }
    c = Long.compare(patch, o.patch);
    if (c != 0) {
      return c;
    }
    // a release has higher precedence than any of its pre-releases
    if (pre.length == 0 || o.pre.length == 0) {
      return pre.length == 0 ? (o.pre.length == 0 ? 0 : 1) : -1;
    }
    int n = Math.min(pre.length, o.pre.length);
    for (int i = 0; i < n; i++) {
      c = comparePre(i, o);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(pre.length, o.pre.length);
  }

  private int comparePre(int i, Version o) {
    long a = preNums[i];
    long b = o.preNums[i];
    if (a != ALPHANUMERIC && b != ALPHANUMERIC) {
      return Long.compare(a, b);
    }
    if (a != ALPHANUMERIC) {
      return -1; // numeric identifiers sort before alphanumeric ones
    }
    if (b != ALPHANUMERIC) {
      return 1;
    }
    return Integer.signum(pre[i].compareTo(o.pre[i]));
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof Version && compareTo((Version) obj) == 0;
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Long.hashCode(major);
      h = 31 * h + Long.hashCode(minor);
      h = 31 * h + Long.hashCode(patch);
      h = 31 * h + Arrays.hashCode(pre);
      hash = h;
    }
    return h;
  }

  /**
   * The canonical text; a strictly parsed version is already canonical, so this is the parsed
   * string.
   */
  @Override
  public String toString() {
    return text;
  }

  private static int saturate(long v) {
    return v > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) v;
  }

  private static long parseCore(String s, int from, int to, String what) throws VersionException {
    if (from == to) {
      throw new VersionException(capitalize(what) + " number is empty");
    }
    for (int i = from; i < to; i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        throw new VersionException(
            "Invalid character(s) found in " + what + " number \"" + s.substring(from, to) + "\"");
      }
    }
    if (to - from > 1 && s.charAt(from) == '0') {
      throw new VersionException(
          capitalize(what)
              + " number must not contain leading zeroes \""
              + s.substring(from, to)
              + "\"");
    }
    long v = toLong(s, from, to);
    if (v < 0) {
      throw new VersionException(
          capitalize(what) + " number too large \"" + s.substring(from, to) + "\"");
    }
    return v;
  }

  /** Returns the identifier's numeric value, or {@link #ALPHANUMERIC}. */
  private static long parsePreRelease(String id) throws VersionException {
    if (id.isEmpty()) {
      throw new VersionException("Prerelease is empty");
    }
    if (isDigits(id)) {
      if (id.length() > 1 && id.charAt(0) == '0') {
        throw new VersionException(
            "Numeric PreRelease version must not contain leading zeroes \"" + id + "\"");
      }
      long v = toLong(id, 0, id.length());
      if (v < 0) {
        throw new VersionException("Numeric PreRelease version too large \"" + id + "\"");
      }
      return v;
    }
    if (!isAlphanumeric(id, 0, id.length())) {
      throw new VersionException("Invalid character(s) found in prerelease \"" + id + "\"");
    }
    return ALPHANUMERIC;
  }

  /** Digits to long; -1 on overflow. */
  private static long toLong(String s, int from, int to) {
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = s.charAt(i) - '0';
      if (v > (Long.MAX_VALUE - d) / 10) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  private static boolean isDigits(String s) {
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAlphanumeric(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      char ch = s.charAt(i);
      boolean ok =
          (ch >= '0' && ch <= '9')
              || (ch >= 'a' && ch <= 'z')
              || (ch >= 'A' && ch <= 'Z')
              || ch == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static String[] split(String s, int from, int to) {
    List<String> out = new ArrayList<>(4);
    int start = from;
    for (int i = from; i <= to; i++) {
      if (i == to || s.charAt(i) == '.') {
        out.add(s.substring(start, i));
        start = i + 1;
      }
    }
    return out.toArray(NO_IDS);
  }

  private static String capitalize(String what) {
    return Character.toUpperCase(what.charAt(0)) + what.substring(1);
  }
}
