package io.olmstead.controlplane.signals;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.DesiredState;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.olmcore.fbc.Deprecation;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What OCM's OperatorPolicy reports about a subscription, as a pure function of its channel in the
 * catalog's current revision, its version policy, the package's {@code olm.deprecations} and what
 * the fleet reports: the versions of the channel above what the policy allows, the deprecated
 * package/channel/installed bundles, a newer channel of the same family, and the clusters stuck
 * short of Succeeded.
 */
public final class Signals {
  /** At most this many stuck cluster names are kept and shown (the count is exact). */
  public static final int MAX_NAMES = 100;

  private Signals() {}

  /** The installed version and bundle some clusters report, and how many. */
  public record Installed(String version, String bundle, long clusters) {}

  /**
   * Everything the signals are computed from. {@code channel} is null when the subscription's
   * channel is not in the catalog (no upgrade signal then); {@code stuck} the names of the clusters
   * stuck longer than {@code stuckAfter}, in name order, {@code stuckCount} how many there are in
   * all.
   */
  public record Input(
      String packageName,
      ChannelView channel,
      Collection<String> channels,
      VersionPolicy policy,
      List<Deprecation.Entry> deprecations,
      List<Installed> installed,
      List<String> stuck,
      long stuckCount,
      Duration stuckAfter) {}

  /**
   * The signals as the subscription's status shows them and as {@code subscription_signals} stores
   * them.
   */
  public static JsonObject compute(Input in) {
    return new JsonObject()
        .put("upgradesAvailable", upgradesAvailable(in))
        .put("deprecations", deprecations(in))
        .put(
            "newerChannel",
            in.channel() == null
                ? null
                : ChannelNames.newest(in.channel().name(), in.channels()).orElse(null))
        .put(
            "stuckClusters",
            new JsonObject()
                .put("count", in.stuckCount())
                .put("after", in.stuckAfter().toString())
                .put(
                    "clusters",
                    new JsonArray(
                        new ArrayList<>(
                            in.stuck().subList(0, Math.min(MAX_NAMES, in.stuck().size()))))));
  }

  /**
   * The channel's versions above the policy's ceiling (a pin, a range's highest match; following
   * the channel allows its head), the newest of them, and how many reporting clusters run a version
   * below that newest one. Null when there is none, or the policy cannot be satisfied by the
   * channel.
   */
  static JsonObject upgradesAvailable(Input in) {
    if (in.channel() == null) {
      return null;
    }
    Optional<Version> ceiling =
        Optional.ofNullable(DesiredState.ceiling(in.policy(), in.channel()).maxVersion())
            .flatMap(Version::tryParse);
    if (ceiling.isEmpty()) {
      return null;
    }
    TreeSet<Version> above = new TreeSet<>();
    in.channel().bundleVersions().values().stream()
        .filter(v -> v.compareTo(ceiling.get()) > 0)
        .forEach(above::add);
    if (above.isEmpty()) {
      return null;
    }
    Version latest = above.last();
    long clusters =
        in.installed().stream()
            .filter(
                i -> Version.tryParse(i.version()).map(v -> v.compareTo(latest) < 0).orElse(false))
            .mapToLong(Installed::clusters)
            .sum();
    JsonArray versions = new JsonArray();
    above.forEach(v -> versions.add(v.toString()));
    return new JsonObject()
        .put("allowed", ceiling.get().toString())
        .put("latest", latest.toString())
        .put("versions", versions)
        .put("clusters", clusters);
  }

  /**
   * The deprecation entries that concern this subscription: the package, its channel, and bundles
   * some cluster runs (with how many clusters run them; for the package and channel, every
   * reporting cluster).
   */
  static JsonArray deprecations(Input in) {
    JsonArray out = new JsonArray();
    long reporting = in.installed().stream().mapToLong(Installed::clusters).sum();
    for (Deprecation.Entry e : in.deprecations()) {
      String schema = e.schema() == null ? "" : e.schema();
      switch (schema) {
        case "olm.package" -> out.add(entry("package", in.packageName(), e.message(), reporting));
        case "olm.channel" -> {
          if (in.channel() != null && in.channel().name().equals(e.name())) {
            out.add(entry("channel", e.name(), e.message(), reporting));
          }
        }
        case "olm.bundle" -> {
          long running =
              in.installed().stream()
                  .filter(i -> e.name() != null && e.name().equals(i.bundle()))
                  .mapToLong(Installed::clusters)
                  .sum();
          if (running > 0) {
            out.add(entry("bundle", e.name(), e.message(), running));
          }
        }
        default -> {
          // an unknown schema was refused at upload; nothing to report
        }
      }
    }
    return out;
  }

  private static JsonObject entry(String scope, String name, String message, long clusters) {
    return new JsonObject()
        .put("scope", scope)
        .put("name", name)
        .put("message", message)
        .put("clusters", clusters);
  }
}
