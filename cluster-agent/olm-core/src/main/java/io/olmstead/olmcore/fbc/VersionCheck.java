package io.olmstead.olmcore.fbc;

import io.olmstead.olmcore.semver.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * operator-registry's version-release rules: the optional release of olm.package, and unique
 * versions per package.
 */
final class VersionCheck {

  private VersionCheck() {}

  /**
   * A release must parse, excludes build metadata in the version, and fixes the bundle name to
   * pkg-vVERSION-RELEASE.
   */
  static void checkRelease(Bundle b, Consumer<String> error) {
    String release = b.release().orElse(null);
    if (release == null) {
      return;
    }
    String name = b.name();
    String invalid = PackageProperty.releaseError(release);
    if (invalid != null) {
      error.accept("error parsing bundle \"" + name + "\" release \"" + release + "\": " + invalid);
      return;
    }
    Version v = b.version().orElse(null);
    if (v == null) {
      return;
    }
    if (!v.build().isEmpty()) {
      error.accept(
          "invalid bundle \""
              + name
              + "\": cannot use build metadata in version with a release version");
    }
    String normalized = b.packageName() + "-v" + v + "-" + release;
    if (!name.equals(normalized)) {
      error.accept(
          "invalid bundle \""
              + name
              + "\": name \""
              + name
              + "\" does not match normalized name \""
              + normalized
              + "\"");
    }
  }

  /**
   * The duplicates as upstream lists them, or null; one version with different releases is not a
   * duplicate.
   */
  static String duplicateVersions(Iterable<Bundle> bs) {
    Map<Version, Map<String, TreeSet<String>>> byVersion = new TreeMap<>();
    for (Bundle b : bs) {
      b.version()
          .ifPresent(
              v ->
                  byVersion
                      .computeIfAbsent(v, k -> new TreeMap<>())
                      .computeIfAbsent(b.release().orElse(""), k -> new TreeSet<>())
                      .add(b.name()));
    }
    List<String> dups = new ArrayList<>();
    byVersion.forEach(
        (v, releases) ->
            releases.forEach(
                (r, names) -> {
                  if (names.size() > 1) {
                    dups.add(
                        "{"
                            + v
                            + (r.isEmpty() ? "" : "-" + r)
                            + ": ["
                            + String.join(", ", names)
                            + "]}");
                  }
                }));
    return dups.isEmpty() ? null : "[" + String.join(" ", dups) + "]";
  }
}
