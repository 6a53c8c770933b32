package io.olmstead.olmcore.fbc;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code olm.package} property of a bundle: its package, strict semver version and optional
 * {@code release} (dot-separated pre-release-style identifiers that order bundles of one version;
 * null when absent).
 */
public record PackageProperty(String packageName, String version, String release) {

  /** Upstream's limit, from the ClusterServiceVersion CRD. */
  static final int MAX_RELEASE_LENGTH = 20;

  /**
   * Why a release is invalid (operator-registry {@code NewRelease}, with its wording), or null; ""
   * is no release.
   */
  static String releaseError(String release) {
    if (release == null || release.isEmpty()) {
      return null;
    }
    if (release.length() > MAX_RELEASE_LENGTH) {
      return "invalid release \""
          + release
          + "\": exceeds maximum length of "
          + MAX_RELEASE_LENGTH
          + " characters";
    }
    List<String> errors = new ArrayList<>();
    String[] segments = release.split("\\.", -1);
    for (int i = 0; i < segments.length; i++) {
      String problem = identifierError(segments[i]);
      if (problem != null) {
        errors.add("segment " + i + ": " + problem);
      }
    }
    return errors.isEmpty()
        ? null
        : "invalid release \"" + release + "\": " + String.join("\n", errors);
  }

  /** blang's NewPRVersion checks. */
  private static String identifierError(String s) {
    if (s.isEmpty()) {
      return "Prerelease is empty";
    }
    boolean digits = true;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean digit = c >= '0' && c <= '9';
      digits &= digit;
      if (!digit && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && c != '-') {
        return "Invalid character(s) found in prerelease \"" + s + "\"";
      }
    }
    if (digits && s.length() > 1 && s.charAt(0) == '0') {
      return "Numeric PreRelease version must not contain leading zeroes \"" + s + "\"";
    }
    return null;
  }
}
