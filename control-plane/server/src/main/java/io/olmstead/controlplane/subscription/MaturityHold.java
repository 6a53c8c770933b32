package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.maturity.KubeVersions;
import io.olmstead.controlplane.maturity.MaturityPolicy;
import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.DesiredState.Ceiling;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Fleet policy on maturity when the catalog moves (pure): the bundle a version policy leads to must
 * comply with the subscription's {@code requirements.maturity} and, for one cluster, use no API its
 * Kubernetes version removed ({@code portability/removed-api}). When it does not, the subscription
 * is held at the highest bundle below it (in the channel, at or below the policy's ceiling, inside
 * a range) that does, with a {@code blockedReason} naming each skipped bundle and the rules it
 * breaks; with none, it is blocked (nothing to install or upgrade to). A bundle without a stored
 * report is not checked (as at {@code PUT}). A pin is only checked, never lowered.
 */
public final class MaturityHold {
  /** At most this many skipped bundles are named in a reason; the count says how many more. */
  static final int MAX_NAMED = 5;

  private static final Comparator<Map.Entry<String, Version>> HIGHEST_FIRST =
      Map.Entry.<String, Version>comparingByValue().reversed().thenComparing(Map.Entry::getKey);

  private MaturityHold() {}

  /** A ceiling after the policy, and why it is below the version policy's (null: not held). */
  public record Held(Ceiling ceiling, String reason) {}

  /**
   * The ceiling {@code ceiling} becomes under the subscription's maturity policy. {@code reports}:
   * bundle name to its stored report (null: none); {@code kubeVersion}: the cluster's reported
   * version (null: all clusters, so only the requirements count).
   */
  public static Held apply(
      SubscriptionSpec spec,
      ChannelView channel,
      Ceiling ceiling,
      Function<String, JsonObject> reports,
      String kubeVersion) {
    if (ceiling.maxVersion() == null || !checked(spec, kubeVersion)) {
      return new Held(ceiling, null);
    }
    List<String> skipped = new ArrayList<>();
    for (Map.Entry<String, Version> candidate : candidates(spec.version(), channel, ceiling)) {
      List<String> broken = broken(spec, reports.apply(candidate.getKey()), kubeVersion);
      if (broken.isEmpty()) {
        if (skipped.isEmpty()) {
          return new Held(ceiling, null);
        }
        return new Held(
            new Ceiling(candidate.getValue().toString(), candidate.getKey(), null),
            "held at " + candidate.getKey() + ": " + named(skipped));
      }
      skipped.add(candidate.getKey() + " breaks " + String.join(", ", broken));
    }
    if (skipped.isEmpty()) {
      return new Held(ceiling, null);
    }
    String reason =
        "no bundle of channel "
            + channel.name()
            + " complies with the maturity policy: "
            + named(skipped);
    return new Held(Ceiling.blocked(reason), reason);
  }

  /**
   * The rules a bundle's report breaks for this subscription (and cluster), sorted; empty when it
   * complies.
   */
  static List<String> broken(SubscriptionSpec spec, JsonObject report, String kubeVersion) {
    if (report == null) {
      return List.of();
    }
    List<String> out =
        new ArrayList<>(
            MaturityPolicy.present(spec.requirements())
                ? MaturityPolicy.brokenRules(spec.requirements(), report)
                : List.of());
    TreeSet<String> removedIn = new TreeSet<>();
    for (JsonObject f : KubeVersions.removedFor(report, kubeVersion)) {
      removedIn.add(f.getString("removedIn"));
    }
    if (!removedIn.isEmpty()) {
      out.add(
          KubeVersions.REMOVED_RULE
              + " (uses APIs removed in Kubernetes "
              + String.join(", ", removedIn)
              + "; the cluster runs "
              + kubeVersion
              + ")");
    }
    return out;
  }

  private static boolean checked(SubscriptionSpec spec, String kubeVersion) {
    return MaturityPolicy.present(spec.requirements()) || kubeVersion != null;
  }

  /**
   * The bundles the policy may land on, highest first: the pin alone, else every one at or below
   * the ceiling.
   */
  private static List<Map.Entry<String, Version>> candidates(
      VersionPolicy policy, ChannelView channel, Ceiling ceiling) {
    Version max = Version.tryParse(ceiling.maxVersion()).orElse(null);
    if (max == null) {
      return List.of();
    }
    VersionRange range = null;
    if (policy.kind() == VersionPolicy.Kind.RANGE) {
      try {
        range = VersionRange.parse(policy.value());
      } catch (VersionException e) {
        return List.of();
      }
    }
    List<Map.Entry<String, Version>> out = new ArrayList<>();
    for (Map.Entry<String, Version> e : channel.bundleVersions().entrySet()) {
      int c = e.getValue().compareTo(max);
      boolean allowed = policy.kind() == VersionPolicy.Kind.PIN ? c == 0 : c <= 0;
      if (allowed && (range == null || range.contains(e.getValue()))) {
        out.add(e);
      }
    }
    out.sort(HIGHEST_FIRST);
    return out;
  }

  private static String named(List<String> skipped) {
    String listed = String.join("; ", skipped.subList(0, Math.min(MAX_NAMED, skipped.size())));
    return skipped.size() <= MAX_NAMED
        ? listed
        : listed + "; and " + (skipped.size() - MAX_NAMED) + " more bundles";
  }
}
