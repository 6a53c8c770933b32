package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.olmstead.olmcore.semver.Version;
import io.olmstead.olmcore.semver.VersionException;
import io.olmstead.olmcore.semver.VersionRange;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The desired subscriptions of one cluster, as a pure function of the cluster (name, labels), every
 * fleet subscription and the current revision of each catalog. The agent gateway pushes the result;
 * rollouts later lower {@code maxVersion} per cluster.
 *
 * <p>{@code maxVersion}: pin gives the pinned version; range the highest bundle version of the
 * channel inside the range; follow the version of the channel head. A subscription whose policy the
 * catalog can no longer satisfy is still returned (so the agent does not uninstall it) with {@code
 * blockedReason} set and no {@code maxVersion}. One its maturity policy holds ({@link
 * MaturityHold}) carries both: the version it is held at and why.
 */
public final class DesiredState {

  // equal versions (differing only in build metadata) resolve to the lexically smallest bundle
  // name, deterministically
  private static final Comparator<Map.Entry<String, Version>> BY_VERSION_THEN_LOWEST_NAME =
      Map.Entry.<String, Version>comparingByValue()
          .thenComparing(Map.Entry::getKey, Comparator.reverseOrder());

  private DesiredState() {}

  /** A cluster as placement sees it, with the Kubernetes version it reports (null: unknown). */
  public record Cluster(String name, Map<String, String> labels, String kubernetesVersion) {
    public Cluster {
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public Cluster(String name, Map<String, String> labels) {
      this(name, labels, null);
    }
  }

  /**
   * Stored maturity reports of the catalogs' current revisions (null: none stored), for {@link
   * MaturityHold}.
   */
  @FunctionalInterface
  public interface Reports {
    Reports NONE = (catalog, pkg, bundle) -> null;

    JsonObject report(String catalog, String pkg, String bundle);
  }

  /**
   * The subscriptions the placement of which selects {@code cluster}, sorted by name, each resolved
   * against {@code catalogs} (by catalog name; a missing catalog blocks the subscription).
   */
  public static List<ComputedSubscription> forCluster(
      Cluster cluster, Collection<Subscription> subscriptions, Map<String, CatalogView> catalogs) {
    return forCluster(cluster, subscriptions, catalogs, Reports.NONE);
  }

  /**
   * As above, each subscription held by its maturity policy ({@link MaturityHold}) for this
   * cluster.
   */
  public static List<ComputedSubscription> forCluster(
      Cluster cluster,
      Collection<Subscription> subscriptions,
      Map<String, CatalogView> catalogs,
      Reports reports) {
    List<ComputedSubscription> out = new ArrayList<>();
    for (Subscription s : subscriptions) {
      if (Placements.selects(s.spec(), cluster.name(), cluster.labels())) {
        out.add(resolve(s, catalogs.get(s.spec().catalog()), reports, cluster.kubernetesVersion()));
      }
    }
    out.sort(Comparator.comparing(ComputedSubscription::name));
    return List.copyOf(out);
  }

  /**
   * Applies the versions a rollout approved for this cluster (subscription name to version): each
   * replaces that subscription's {@code maxVersion}, so the cluster moves only when its wave opens
   * (or back, on rollback).
   */
  public static List<ComputedSubscription> withApprovedVersions(
      List<ComputedSubscription> desired, Map<String, String> approved) {
    Map<String, Approval> approvals = new HashMap<>();
    if (approved != null) {
      approved.forEach((name, version) -> approvals.put(name, Approval.of(version)));
    }
    return withApprovals(desired, approvals);
  }

  /**
   * What rollouts decided for a subscription on one cluster: the version approved, or (no version)
   * that it stays withheld there, {@code withheld} saying why (a consumer held because its provider
   * failed there, V57).
   */
  public record Approval(String version, String withheld) {
    public static Approval of(String version) {
      return new Approval(version, null);
    }
  }

  /**
   * Applies rollouts' approvals: an approved version replaces the subscription's {@code
   * maxVersion}; a withheld one sends it without {@code maxVersion} and with the reason, so the
   * agent installs nothing and keeps what runs.
   */
  public static List<ComputedSubscription> withApprovals(
      List<ComputedSubscription> desired, Map<String, Approval> approved) {
    if (approved == null || approved.isEmpty()) {
      return desired;
    }
    List<ComputedSubscription> out = new ArrayList<>(desired.size());
    for (ComputedSubscription d : desired) {
      Approval a = approved.get(d.name());
      if (a != null && a.version() == null && a.withheld() != null) {
        out.add(
            new ComputedSubscription(
                d.name(),
                d.catalog(),
                d.catalogDigest(),
                d.packageName(),
                d.channel(),
                d.namespace(),
                d.targetNamespaces(),
                d.approval(),
                null,
                null,
                d.config(),
                d.crdRemoval(),
                d.generation(),
                a.withheld(),
                null,
                d.crdUpgradeSafety()));
        continue;
      }
      String version = a == null ? null : a.version();
      out.add(
          version == null || !approvable(d, version)
              ? d
              : new ComputedSubscription(
                  d.name(),
                  d.catalog(),
                  d.catalogDigest(),
                  d.packageName(),
                  d.channel(),
                  d.namespace(),
                  d.targetNamespaces(),
                  d.approval(),
                  d.startingBundle(),
                  version,
                  d.config(),
                  d.crdRemoval(),
                  d.generation(),
                  d.blockedReason(),
                  true,
                  d.crdUpgradeSafety()));
    }
    return List.copyOf(out);
  }

  /**
   * A rollout's approval applies unless the subscription is blocked; a subscription held by its
   * maturity policy takes approvals only at or below the version it is held at (a rollout back,
   * never past the hold).
   */
  private static boolean approvable(ComputedSubscription d, String approved) {
    if (d.blockedReason() == null) {
      return true;
    }
    Optional<Version> held = Version.tryParse(d.maxVersion());
    Optional<Version> to = Version.tryParse(approved);
    return held.isPresent() && to.isPresent() && to.get().compareTo(held.get()) <= 0;
  }

  /** One subscription resolved against its catalog's current revision (null catalog: blocked). */
  public static ComputedSubscription resolve(Subscription subscription, CatalogView catalog) {
    return resolve(subscription, catalog, Reports.NONE, null);
  }

  /**
   * One subscription resolved against its catalog's current revision and held by its maturity
   * policy for a cluster on {@code kubeVersion} (null: the requirements alone).
   */
  public static ComputedSubscription resolve(
      Subscription subscription, CatalogView catalog, Reports reports, String kubeVersion) {
    SubscriptionSpec spec = subscription.spec();
    if (catalog == null) {
      return desired(
          subscription,
          null,
          spec.channel(),
          null,
          null,
          "catalog " + spec.catalog() + " has no revision");
    }
    Optional<PackageView> pkg = catalog.pkg(spec.packageName());
    if (pkg.isEmpty()) {
      return desired(
          subscription,
          catalog.digest(),
          spec.channel(),
          null,
          null,
          "package " + spec.packageName() + " is not in catalog " + spec.catalog());
    }
    Optional<ChannelView> channel = pkg.get().channel(spec.channel());
    if (channel.isEmpty()) {
      String name = spec.channel() == null ? "(default)" : spec.channel();
      return desired(
          subscription,
          catalog.digest(),
          spec.channel(),
          null,
          null,
          "channel " + name + " is not in package " + spec.packageName());
    }
    ChannelView ch = channel.get();
    MaturityHold.Held held =
        MaturityHold.apply(
            spec,
            ch,
            ceiling(spec.version(), ch),
            bundle -> reports.report(catalog.name(), spec.packageName(), bundle),
            kubeVersion);
    Ceiling ceiling = held.ceiling();
    return desired(
        subscription,
        catalog.digest(),
        ch.name(),
        ceiling.startingBundle,
        ceiling.maxVersion,
        held.reason() != null ? held.reason() : ceiling.problem);
  }

  /**
   * The highest version a policy allows in a channel, with the bundle a fresh install starts at.
   */
  public static Ceiling ceiling(VersionPolicy policy, ChannelView channel) {
    switch (policy.kind()) {
      case PIN:
        {
          Optional<Version> pinned = Version.tryParse(policy.value());
          if (pinned.isEmpty()) {
            return Ceiling.blocked(
                "pinned version " + policy.value() + " is not a semantic version");
          }
          Optional<String> bundle = channel.bundleWithVersion(pinned.get());
          return bundle.isPresent()
              ? new Ceiling(pinned.get().toString(), bundle.get(), null)
              : Ceiling.blocked(
                  "no bundle of version " + pinned.get() + " in channel " + channel.name());
        }
      case RANGE:
        {
          VersionRange range;
          try {
            range = VersionRange.parse(policy.value());
          } catch (VersionException e) {
            return Ceiling.blocked(e.getMessage());
          }
          Optional<Map.Entry<String, Version>> best =
              channel.bundleVersions().entrySet().stream()
                  .filter(e -> range.contains(e.getValue()))
                  .max(BY_VERSION_THEN_LOWEST_NAME);
          return best.isPresent()
              ? new Ceiling(best.get().getValue().toString(), best.get().getKey(), null)
              : Ceiling.blocked(
                  "no bundle in channel " + channel.name() + " matches range " + policy.value());
        }
      default:
        {
          Optional<Version> head = channel.headVersion();
          return head.isPresent()
              ? new Ceiling(head.get().toString(), null, null)
              : Ceiling.blocked("channel " + channel.name() + " has no versioned head");
        }
    }
  }

  /** A computed ceiling: {@code maxVersion} and {@code startingBundle}, or why there is none. */
  public record Ceiling(String maxVersion, String startingBundle, String problem) {
    static Ceiling blocked(String problem) {
      return new Ceiling(null, null, problem);
    }
  }

  private static ComputedSubscription desired(
      Subscription subscription,
      String digest,
      String channel,
      String startingBundle,
      String maxVersion,
      String blockedReason) {
    SubscriptionSpec spec = subscription.spec();
    return new ComputedSubscription(
        spec.name(),
        spec.catalog(),
        digest,
        spec.packageName(),
        channel,
        spec.namespace(),
        OperatorGroup.wireTargets(spec),
        spec.approval(),
        startingBundle,
        maxVersion,
        spec.config().copy(),
        spec.crdRemoval(),
        subscription.generation(),
        blockedReason,
        null,
        SubscriptionSpec.SAFETY_NONE.equals(spec.crdUpgradeSafety())
            ? null
            : spec.crdUpgradeSafety());
  }
}
