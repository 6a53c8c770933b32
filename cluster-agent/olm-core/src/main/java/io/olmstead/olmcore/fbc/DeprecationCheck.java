package io.olmstead.olmcore.fbc;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The {@code olm.deprecations} rules of upstream's declcfg-to-model conversion; keeps the valid
 * blobs.
 */
final class DeprecationCheck {

  private DeprecationCheck() {}

  /**
   * Validates every deprecation blob; returns the valid one per package. {@code hasBundle}/{@code
   * hasChannel} answer (package, name) lookups.
   */
  static Map<String, Deprecation> check(
      List<Deprecation> deprecations,
      Set<String> packages,
      BiPredicate<String, String> hasBundle,
      BiPredicate<String, String> hasChannel,
      List<ValidationIssue> issues) {
    Map<String, Deprecation> valid = new HashMap<>();
    Set<String> seenPackages = new HashSet<>();
    for (int i = 0; i < deprecations.size(); i++) {
      Deprecation d = deprecations.get(i);
      String pkg = d.packageName();
      if (pkg == null || pkg.isEmpty()) {
        issues.add(
            new ValidationIssue(
                null, null, null, "package name must be set for deprecation item " + i));
        continue;
      }
      if (!packages.contains(pkg)) {
        issues.add(
            new ValidationIssue(
                pkg,
                null,
                null,
                "cannot apply deprecations to an unknown package \"" + pkg + "\""));
        continue;
      }
      if (!seenPackages.add(pkg)) {
        issues.add(
            new ValidationIssue(
                pkg,
                null,
                null,
                "expected a maximum of one deprecation per package: \"" + pkg + "\""));
        valid.remove(pkg);
        continue;
      }
      if (entriesValid(d, hasBundle, hasChannel, issues)) {
        valid.put(pkg, d);
      }
    }
    return valid;
  }

  private static boolean entriesValid(
      Deprecation d,
      BiPredicate<String, String> hasBundle,
      BiPredicate<String, String> hasChannel,
      List<ValidationIssue> issues) {
    String pkg = d.packageName();
    int before = issues.size();
    Set<String> refs = new HashSet<>();
    for (int j = 0; j < d.entries().size(); j++) {
      Deprecation.Entry e = d.entries().get(j);
      if (e.schema() == null || e.schema().isEmpty()) {
        issues.add(
            new ValidationIssue(
                pkg,
                null,
                null,
                "schema must be set for deprecation entry ["
                    + j
                    + "] for package \""
                    + pkg
                    + "\""));
        continue;
      }
      String ref =
          "declcfg.PackageScopedReference{Schema:\""
              + e.schema()
              + "\", Name:\""
              + nullToEmpty(e.name())
              + "\"}";
      if (!refs.add(ref)) {
        issues.add(
            new ValidationIssue(
                pkg,
                null,
                null,
                "duplicate deprecation entry " + ref + " for package \"" + pkg + "\""));
        continue;
      }
      String schema = nullToEmpty(e.schema());
      switch (schema) {
        case "olm.bundle" -> {
          if (!hasBundle.test(pkg, e.name())) {
            issues.add(
                new ValidationIssue(
                    pkg,
                    null,
                    e.name(),
                    "cannot deprecate bundle \""
                        + nullToEmpty(e.name())
                        + "\" for package \""
                        + pkg
                        + "\": bundle not found"));
          }
        }
        case "olm.channel" -> {
          if (!hasChannel.test(pkg, e.name())) {
            issues.add(
                new ValidationIssue(
                    pkg,
                    null,
                    null,
                    "cannot deprecate channel \""
                        + nullToEmpty(e.name())
                        + "\" for package \""
                        + pkg
                        + "\": channel not found"));
          }
        }
        case "olm.package" -> {
          if (e.name() != null && !e.name().isEmpty()) {
            issues.add(
                new ValidationIssue(
                    pkg,
                    null,
                    null,
                    "package name must be empty for deprecated package \""
                        + pkg
                        + "\" (specified \""
                        + e.name()
                        + "\")"));
          }
        }
        default ->
            issues.add(
                new ValidationIssue(
                    pkg,
                    null,
                    null,
                    "cannot deprecate object "
                        + ref
                        + " referenced by entry "
                        + j
                        + " for package \""
                        + pkg
                        + "\": object schema unknown"));
      }
      if (e.message() == null || e.message().isEmpty()) {
        issues.add(
            new ValidationIssue(
                pkg, null, null, "deprecation entry [" + j + "] must have a message"));
      }
    }
    return issues.size() == before;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
