package io.olmstead.controlplane.upgradereadiness;

import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenShift upgrade readiness (pure): which installed operators keep a cluster from an OpenShift
 * minor, from the {@code olm.maxOpenShiftVersion} of the bundles it runs, as OLM on OpenShift
 * computes its {@code Upgradeable} condition: the next minor is the desired version's minor plus
 * one; an operator whose maximum is below it blocks; an operator without a maximum never blocks;
 * copies do not exist here (one report per subscription). Major and minor are compared, never the
 * patch, as {@code olm.maxOpenShiftVersion} is {@code major.minor} only.
 */
public final class UpgradeReadiness {
  /** At most this many newer operator versions are named as the way out of a block. */
  static final int MAX_UNBLOCKING = 5;

  /** The label the HyperShift watcher sets to the newest completed OpenShift version. */
  static final String VERSION_LABEL = "hypershift.olmstead.io/version";

  private static final Pattern MINOR = Pattern.compile("^v?(\\d{1,6})\\.(\\d{1,6})(?:[.+-].*)?$");

  private UpgradeReadiness() {}

  /** An OpenShift {@code major.minor}. */
  public record Minor(long major, long minor) implements Comparable<Minor> {
    /**
     * The major.minor of an OpenShift version ({@code 4.19.7}, {@code 4.18}, {@code v4.16.0-rc.1});
     * empty if none.
     */
    public static Optional<Minor> of(String version) {
      Matcher m = version == null ? null : MINOR.matcher(version.strip().replaceAll("^\"|\"$", ""));
      if (m == null || !m.matches()) {
        return Optional.empty();
      }
      return Optional.of(new Minor(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
    }

    public Minor next() {
      return new Minor(major, minor + 1);
    }

    @Override
    public int compareTo(Minor o) {
      return major != o.major ? Long.compare(major, o.major) : Long.compare(minor, o.minor);
    }

    @Override
    public String toString() {
      return major + "." + minor;
    }
  }

  /**
   * An operator a cluster runs: its subscription, the bundle and version installed, that bundle's
   * maximum (null: none or unknown) and the catalog it came from; {@code visible} is false when the
   * caller may not see the subscription.
   */
  public record Installed(
      String subscription,
      String namespace,
      String catalog,
      String packageName,
      String bundle,
      String version,
      String maxOpenShiftVersion,
      boolean visible) {}

  /** A bundle of a catalog's current revision, as a candidate way out of a block. */
  public record Candidate(String bundle, String version, String maxOpenShiftVersion) {}

  /** The OpenShift version a cluster is at or moving to, and where it was read. */
  public record ClusterVersion(String version, String source) {}

  /**
   * The version readiness starts from, as OLM starts from ClusterVersion's desired version: the
   * HostedCluster's desired version ({@code facts.hypershift.desiredVersion}), else the one the
   * agent reported ({@code facts.openshiftVersion}, ClusterVersion's desired), else the {@code
   * hypershift.olmstead.io/version} label.
   */
  public static Optional<ClusterVersion> version(Map<String, String> labels, JsonObject facts) {
    JsonObject hosted = facts == null ? null : facts.getJsonObject("hypershift");
    List<ClusterVersion> sources = new ArrayList<>();
    sources.add(
        new ClusterVersion(
            hosted == null ? null : hosted.getString("desiredVersion"), "hostedCluster"));
    sources.add(
        new ClusterVersion(facts == null ? null : facts.getString("openshiftVersion"), "agent"));
    sources.add(new ClusterVersion(labels.get(VERSION_LABEL), "label"));
    return sources.stream().filter(v -> Minor.of(v.version()).isPresent()).findFirst();
  }

  /** An installed operator that blocks, with the newer versions of its package that would not. */
  public record Blocker(Installed operator, List<String> unblockedBy) {}

  /**
   * The installed operators that keep a cluster from {@code target}, each with up to {@value
   * #MAX_UNBLOCKING} newer versions of its package (lowest first) whose maximum allows {@code
   * target}; {@code candidates} are keyed by {@link #key(String, String)}.
   */
  public static List<Blocker> blockers(
      Minor target, List<Installed> installed, Map<String, List<Candidate>> candidates) {
    List<Blocker> out = new ArrayList<>();
    for (Installed op : installed) {
      if (allows(op.maxOpenShiftVersion(), target)) {
        continue;
      }
      out.add(
          new Blocker(
              op,
              unblocking(
                  target,
                  op,
                  candidates.getOrDefault(key(op.catalog(), op.packageName()), List.of()))));
    }
    out.sort(Comparator.comparing((Blocker b) -> b.operator().subscription()));
    return out;
  }

  /** Whether a maximum (null or unparseable: none) allows the cluster to run {@code target}. */
  public static boolean allows(String maxOpenShiftVersion, Minor target) {
    Optional<Minor> max = Minor.of(maxOpenShiftVersion);
    return max.isEmpty() || max.get().compareTo(target) >= 0;
  }

  /** The key of a package of a catalog in the candidates map. */
  public static String key(String catalog, String packageName) {
    return catalog + "/" + packageName;
  }

  /**
   * The message OLM's ClusterOperator condition gives for these blockers, or null when none block.
   */
  public static String message(List<Blocker> blockers) {
    if (blockers.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (Blocker b : blockers) {
      Installed op = b.operator();
      parts.add(
          (op.visible()
                  ? "Operator " + op.bundle() + " in namespace " + op.namespace()
                  : "An operator of another team")
              + " is not compatible with OpenShift versions greater than "
              + Minor.of(op.maxOpenShiftVersion())
                  .map(Minor::toString)
                  .orElse(op.maxOpenShiftVersion()));
    }
    return "The following operators block OpenShift upgrades: " + String.join(",", parts);
  }

  private static List<String> unblocking(Minor target, Installed op, List<Candidate> candidates) {
    Optional<Version> installed = Version.tryParse(op.version());
    return candidates.stream()
        .filter(c -> allows(c.maxOpenShiftVersion(), target))
        .filter(c -> Version.tryParse(c.version()).isPresent())
        .filter(
            c ->
                installed.isEmpty()
                    || Version.tryParse(c.version()).get().compareTo(installed.get()) > 0)
        .sorted(Comparator.comparing(c -> Version.tryParse(c.version()).get()))
        .limit(MAX_UNBLOCKING)
        .map(Candidate::version)
        .toList();
  }
}
