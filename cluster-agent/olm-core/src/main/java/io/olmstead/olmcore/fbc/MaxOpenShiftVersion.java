package io.olmstead.olmcore.fbc;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;

/**
 * The {@code olm.maxOpenShiftVersion} property: the newest OpenShift minor the operator supports.
 * It never affects resolution; a cluster whose next minor is past it must not upgrade while the
 * operator is installed.
 */
public record MaxOpenShiftVersion(long major, long minor) {

  public static final String TYPE = "olm.maxOpenShiftVersion";

  /** True when an OpenShift {@code major.minor} is within this maximum. */
  public boolean allows(long clusterMajor, long clusterMinor) {
    return clusterMajor < major || clusterMajor == major && clusterMinor <= minor;
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }

  /**
   * Decodes a value as OLM does (operator-lifecycle-manager {@code maxOpenShiftVersion}): the raw
   * value with surrounding quotes trimmed, parsed by blang's {@code ParseTolerant}, and only {@code
   * major.minor} allowed. A YAML or JSON number is taken as Jackson prints it ({@code 4.10} becomes
   * {@code 4.1}, as in upstream's YAML-to-JSON step): quote the value.
   */
  static Decoded<MaxOpenShiftVersion> parse(JsonNode value) {
    String raw =
        value == null || value.isMissingNode()
            ? ""
            : value.isValueNode() ? value.asText() : value.toString();
    String text = trimQuotes(raw);
    if (text.isEmpty()) {
      return invalid("value cannot be \"\" (an empty string)");
    }
    Version v;
    try {
      v = Version.parse(tolerant(text));
    } catch (VersionException e) {
      return invalid("failed to parse \"" + text + "\" as semver: " + e.getMessage());
    }
    if (v.patchLong() != 0 || v.isPreRelease() || !v.build().isEmpty()) {
      return invalid(
          "property \""
              + TYPE
              + "\" must specify only <major>.<minor> version, got invalid value "
              + v);
    }
    return Decoded.ok(new MaxOpenShiftVersion(v.majorLong(), v.minorLong()));
  }

  private static Decoded<MaxOpenShiftVersion> invalid(String why) {
    return Decoded.error("invalid \"" + TYPE + "\" property: " + why);
  }

  private static String trimQuotes(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && s.charAt(from) == '"') {
      from++;
    }
    while (to > from && s.charAt(to - 1) == '"') {
      to--;
    }
    return s.substring(from, to);
  }

  /**
   * blang's ParseTolerant: trim, drop a leading "v", strip leading zeros, pad "4.15" to "4.15.0".
   */
  private static String tolerant(String s) throws VersionException {
    s = s.strip();
    if (s.startsWith("v")) {
      s = s.substring(1);
    }
    String[] parts = s.split("\\.", 3);
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (p.length() > 1) {
        p = p.replaceFirst("^0+", "");
        if (p.isEmpty() || p.charAt(0) < '0' || p.charAt(0) > '9') {
          p = "0" + p;
        }
        parts[i] = p;
      }
    }
    if (parts.length < 3) {
      String last = parts[parts.length - 1];
      if (last.contains("+") || last.contains("-")) {
        throw new VersionException("Short version cannot contain PreRelease/Build meta data");
      }
      StringBuilder sb = new StringBuilder(String.join(".", parts));
      for (int i = parts.length; i < 3; i++) {
        sb.append(".0");
      }
      return sb.toString();
    }
    return String.join(".", parts);
  }
}
