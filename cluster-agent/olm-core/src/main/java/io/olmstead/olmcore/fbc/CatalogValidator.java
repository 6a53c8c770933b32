package io.olmstead.olmcore.fbc;

import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validates a {@link DeclarativeConfig} with upstream's rules and messages (OLM-SEMANTICS §1-2) and
 * indexes it into a {@link Catalog}. Every error is collected and names its package, channel and
 * bundle.
 */
public final class CatalogValidator {

  private final List<ValidationIssue> issues = new ArrayList<>();
  private final Map<String, PackageMeta> packages = new LinkedHashMap<>();
  private final Set<String> badPackages = new HashSet<>();
  private final Map<String, Map<String, Channel>> channels = new HashMap<>();
  private final Set<String> badChannels = new HashSet<>();
  private final Map<String, Map<String, Bundle>> bundles = new HashMap<>();
  private final Set<String> badBundles = new HashSet<>();
  private final Map<String, Map<String, ChannelGraph>> graphs = new HashMap<>();

  private CatalogValidator() {}

  /**
   * STRICT: no catalog when there is any error. LENIENT: the catalog is indexed and every error is
   * reported as a warning; what an error touches is marked unusable and the rest stays usable:
   *
   * <ul>
   *   <li>an invalid package stays visible with {@link CatalogPackage#usable()} false; all its
   *       channels are then unusable;
   *   <li>an invalid channel, or one with an entry whose bundle is invalid or absent, moves from
   *       {@link CatalogPackage#channels()} (what resolution and upgrade graphs use) to {@link
   *       CatalogPackage#unusableChannels()};
   *   <li>an invalid bundle is left out of {@link CatalogPackage#bundles()} (its channels become
   *       unusable);
   *   <li>a blob that names an unknown package, or has no name, is left out, and an invalid {@code
   *       olm.deprecations} blob is ignored.
   * </ul>
   *
   * A null mode is STRICT; a null config gives no catalog and one error. Never throws.
   */
  public static ValidationResult validate(DeclarativeConfig config, ValidationMode mode) {
    if (config == null) {
      return rejected("no catalog to validate");
    }
    try {
      return validateChecked(config, mode == null ? ValidationMode.STRICT : mode);
    } catch (RuntimeException e) {
      // Defensive: a blob shaped in a way no check foresaw must come back as an error, not an
      // exception.
      return rejected("catalog could not be validated: " + e);
    }
  }

  private static ValidationResult rejected(String message) {
    return new ValidationResult(
        Optional.empty(), List.of(new ValidationIssue(null, null, null, message)), List.of());
  }

  private static ValidationResult validateChecked(DeclarativeConfig config, ValidationMode mode) {
    CatalogValidator v = new CatalogValidator();
    v.run(config);
    Map<String, Deprecation> deprecations =
        DeprecationCheck.check(
            config.deprecations(),
            v.packages.keySet(),
            (p, b) -> b != null && v.bundles.getOrDefault(p, Map.of()).containsKey(b),
            (p, c) -> c != null && v.channels.getOrDefault(p, Map.of()).containsKey(c),
            v.issues);
    if (mode == ValidationMode.STRICT) {
      if (!v.issues.isEmpty()) {
        return new ValidationResult(Optional.empty(), v.issues, List.of());
      }
      return new ValidationResult(Optional.of(v.index(deprecations)), List.of(), List.of());
    }
    return new ValidationResult(Optional.of(v.index(deprecations)), List.of(), v.issues);
  }

  private void run(DeclarativeConfig cfg) {
    for (PackageMeta p : cfg.packages()) {
      checkPackage(p);
    }
    for (Channel c : cfg.channels()) {
      checkChannel(c);
    }
    for (Bundle b : cfg.bundles()) {
      checkBundle(b);
    }
    for (PackageMeta p : packages.values()) {
      crossCheck(p);
    }
  }

  private void checkPackage(PackageMeta p) {
    String name = p.name();
    if (name == null || name.isEmpty()) {
      issues.add(new ValidationIssue(null, null, null, "config contains package with no name"));
      return;
    }
    if (packages.containsKey(name)) {
      issues.add(new ValidationIssue(name, null, null, "duplicate package \"" + name + "\""));
      badPackages.add(name);
      return;
    }
    packages.put(name, p);
    String dns = Dns1123.labelErrors(name);
    if (dns != null) {
      packageError(name, "invalid package name \"" + name + "\": " + dns);
    }
    if (p.defaultChannel() == null || p.defaultChannel().isEmpty()) {
      packageError(name, "default channel must be set");
    }
  }

  private void checkChannel(Channel c) {
    String pkg = c.packageName();
    if (!packages.containsKey(pkg)) {
      issues.add(
          new ValidationIssue(
              pkg,
              c.name(),
              null,
              "unknown package \"" + pkg + "\" for channel \"" + c.name() + "\""));
      return;
    }
    if (c.name() == null || c.name().isEmpty()) {
      packageError(pkg, "package \"" + pkg + "\" contains channel with no name");
      return;
    }
    Map<String, Channel> byName = channels.computeIfAbsent(pkg, k -> new LinkedHashMap<>());
    if (byName.containsKey(c.name())) {
      packageError(pkg, "package \"" + pkg + "\" has duplicate channel \"" + c.name() + "\"");
      return;
    }
    byName.put(c.name(), c);
    for (ChannelEntry e : c.entries()) {
      if (e.name() == null || e.name().isEmpty()) {
        channelError(pkg, c.name(), null, "name must be set");
      }
      for (int i = 0; i < e.skips().size(); i++) {
        if (e.skips().get(i) == null || e.skips().get(i).isEmpty()) {
          channelError(
              pkg,
              c.name(),
              e.name(),
              "invalid bundle \"" + e.name() + "\": skip[" + i + "] is empty");
        }
      }
    }
  }

  private void checkBundle(Bundle b) {
    String pkg = b.packageName();
    String name = b.name();
    if (pkg == null || pkg.isEmpty()) {
      issues.add(
          new ValidationIssue(
              null, null, name, "package name must be set for bundle \"" + name + "\""));
      return;
    }
    if (!packages.containsKey(pkg)) {
      issues.add(
          new ValidationIssue(
              pkg, null, name, "unknown package \"" + pkg + "\" for bundle \"" + name + "\""));
      return;
    }
    if (name == null || name.isEmpty()) {
      packageError(pkg, "invalid bundle \"\": name must be set");
      return;
    }
    Map<String, Bundle> byName = bundles.computeIfAbsent(pkg, k -> new LinkedHashMap<>());
    if (byName.containsKey(name)) {
      bundleError(pkg, name, "package \"" + pkg + "\" has duplicate bundle \"" + name + "\"");
      return;
    }
    byName.put(name, b);
    if (b.packagePropertyCount() != 1) {
      bundleError(
          pkg,
          name,
          "package \""
              + pkg
              + "\" bundle \""
              + name
              + "\" must have exactly 1 \"olm.package\" property, found "
              + b.packagePropertyCount());
    } else {
      String propPkg = b.packagePropertyName();
      if (!pkg.equals(propPkg)) {
        bundleError(
            pkg,
            name,
            "package \"" + pkg + "\" does not match \"olm.package\" property \"" + propPkg + "\"");
      }
      if (b.version().isEmpty()) {
        try {
          Version.parse(b.versionText() == null ? "" : b.versionText());
        } catch (VersionException ex) {
          bundleError(
              pkg,
              name,
              "error parsing bundle \""
                  + name
                  + "\" version \""
                  + b.versionText()
                  + "\": "
                  + ex.getMessage());
        }
      }
      VersionCheck.checkRelease(b, msg -> bundleError(pkg, name, msg));
    }
    PropertyCheck.check(
        b, (msg) -> bundleError(pkg, name, "invalid bundle \"" + name + "\": " + msg));
    if ((b.image() == null || b.image().isEmpty()) && b.objects().isEmpty()) {
      bundleError(pkg, name, "invalid bundle \"" + name + "\": bundle image must be set");
    }
  }

  /**
   * Rules that need all blobs of a package: entries vs bundles, graphs, default channel, versions.
   */
  private void crossCheck(PackageMeta p) {
    String pkg = p.name();
    Map<String, Channel> chans = channels.getOrDefault(pkg, Map.of());
    Map<String, Bundle> bs = bundles.getOrDefault(pkg, Map.of());
    if (chans.isEmpty()) {
      packageError(
          pkg, "invalid package \"" + pkg + "\": package must contain at least one channel");
    } else if (p.defaultChannel() != null
        && !p.defaultChannel().isEmpty()
        && !chans.containsKey(p.defaultChannel())) {
      packageError(
          pkg,
          "invalid package \""
              + pkg
              + "\": default channel \""
              + p.defaultChannel()
              + "\" not found in channels list");
    }
    Set<String> inChannels = new HashSet<>();
    Map<String, Version> versions = new HashMap<>();
    for (Bundle b : bs.values()) {
      b.version().ifPresent(v -> versions.put(b.name(), v));
    }
    Map<String, ChannelGraph> pkgGraphs = new LinkedHashMap<>();
    for (Channel c : chans.values()) {
      List<String> missing = new ArrayList<>();
      for (ChannelEntry e : c.entries()) {
        inChannels.add(e.name());
        if (e.name() != null && !bs.containsKey(e.name())) {
          missing.add(e.name());
        }
      }
      if (!missing.isEmpty()) {
        channelError(
            pkg,
            c.name(),
            null,
            "no olm.bundle blobs found in package \""
                + pkg
                + "\" for olm.channel entries ["
                + String.join(" ", new TreeSet<>(missing))
                + "]");
      }
      ChannelGraph g = ChannelGraph.of(c, versions);
      g.skipRangeErrors()
          .forEach(
              (entry, err) ->
                  channelError(
                      pkg,
                      c.name(),
                      entry,
                      "invalid bundle \""
                          + entry
                          + "\": invalid skipRange \""
                          + c.entries().stream()
                              .filter(x -> entry.equals(x.name()))
                              .findFirst()
                              .map(ChannelEntry::skipRange)
                              .orElse("")
                          + "\": "
                          + err));
      for (String err : g.errors()) {
        channelError(pkg, c.name(), null, "invalid channel \"" + c.name() + "\": " + err);
      }
      pkgGraphs.put(c.name(), g);
    }
    graphs.put(pkg, pkgGraphs);
    for (Bundle b : bs.values()) {
      if (!inChannels.contains(b.name())) {
        bundleError(
            pkg,
            b.name(),
            "package \""
                + pkg
                + "\", bundle \""
                + b.name()
                + "\" not found in any channel entries");
      }
    }
    String dup = VersionCheck.duplicateVersions(bs.values());
    if (dup != null) {
      packageError(
          pkg, "invalid package \"" + pkg + "\": duplicate versions found in bundles: " + dup);
    }
  }

  private Catalog index(Map<String, Deprecation> deprecations) {
    List<CatalogPackage> out = new ArrayList<>(packages.size());
    for (PackageMeta p : packages.values()) {
      String pkg = p.name();
      boolean usable = !badPackages.contains(pkg);
      Map<String, Bundle> keep = new LinkedHashMap<>();
      bundles
          .getOrDefault(pkg, Map.of())
          .forEach(
              (n, b) -> {
                if (!badBundles.contains(key(pkg, n))) {
                  keep.put(n, b);
                }
              });
      Map<String, ChannelGraph> usableGraphs = new LinkedHashMap<>();
      Map<String, ChannelGraph> unusableGraphs = new LinkedHashMap<>();
      graphs
          .getOrDefault(pkg, Map.of())
          .forEach(
              (n, g) -> {
                boolean ok = usable && !badChannels.contains(key(pkg, n)) && allPresent(g, keep);
                (ok ? usableGraphs : unusableGraphs).put(n, g);
              });
      out.add(
          new CatalogPackage(p, usableGraphs, unusableGraphs, keep, deprecations.get(pkg), usable));
    }
    return new Catalog(out);
  }

  private static boolean allPresent(ChannelGraph g, Map<String, Bundle> keep) {
    for (ChannelEntry e : g.entries()) {
      if (!keep.containsKey(e.name())) {
        return false;
      }
    }
    return true;
  }

  private void packageError(String pkg, String msg) {
    issues.add(new ValidationIssue(pkg, null, null, msg));
    badPackages.add(pkg);
  }

  private void channelError(String pkg, String channel, String bundle, String msg) {
    issues.add(new ValidationIssue(pkg, channel, bundle, msg));
    badChannels.add(key(pkg, channel));
  }

  private void bundleError(String pkg, String bundle, String msg) {
    issues.add(new ValidationIssue(pkg, null, bundle, msg));
    badBundles.add(key(pkg, bundle));
  }

  private static String key(String a, String b) {
    return a + '\u0000' + b;
  }
}
