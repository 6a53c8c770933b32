package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import io.olmstead.olmcore.semver.Version;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * A fleet rollback step, worked out before deciding. OLM itself never downgrades (its resolver only
 * offers successors of the installed bundle, and OLM-SEMANTICS says nothing about going back); this
 * exists because a rollout with {@code onFailure: rollback} lowers each cluster's maxVersion back
 * to its previous version. When the bundle a subscription is about is above maxVersion, the agent
 * moves it to the channel's highest bundle at or below maxVersion (the exact previous version, as
 * the rollout engine names it), gated like an upgrade.
 *
 * @param target that bundle, or null when the channel has none
 * @param crdProblem why olm-core's CRD safety rules refuse installing {@code target} over the
 *     cluster's CRDs (a stored version dropped, existing custom resources rejected by the older
 *     schema), or null when safe
 */
public record Rollback(Bundle target, String crdProblem) {

  /** The channel has no bundle at or below maxVersion: nothing to go back to. */
  public static final Rollback NO_TARGET = new Rollback(null, null);

  /**
   * The bundle above the subscription's maxVersion that has to be rolled back: the installed one,
   * or an upgrade still in progress. Empty when there is no ceiling, or when either version is not
   * semver.
   */
  public static Optional<ObservedBundle> aboveCeiling(
      SubscriptionToReconcile desired, ObservedSubscription observed) {
    Optional<Version> ceiling = ceiling(desired);
    // only a rollout's approval sends a cluster back; a lower pin, range or channel head holds it
    // where it is
    if (ceiling.isEmpty() || !desired.rollback()) {
      return Optional.empty();
    }
    return observed
        .current()
        .filter(b -> b.semver().map(v -> v.compareTo(ceiling.get()) > 0).orElse(false));
  }

  /**
   * The bundle of the subscription's channel (empty = the package's default) with the highest
   * version at or below maxVersion. Every entry of the channel counts, including ones another entry
   * skips: a rollback returns to what ran before, which need not be on today's upgrade path.
   */
  public static Optional<Bundle> target(Catalog catalog, SubscriptionToReconcile desired) {
    Optional<Version> ceiling = ceiling(desired);
    Optional<CatalogPackage> pkg = catalog.pkg(desired.packageName());
    if (ceiling.isEmpty() || pkg.isEmpty()) {
      return Optional.empty();
    }
    return pkg.get().channel(desired.channel()).stream()
        .flatMap(graph -> graph.entries().stream())
        .map(ChannelEntry::name)
        .map(name -> pkg.get().bundle(name).orElse(null))
        .filter(Objects::nonNull)
        .filter(b -> b.version().map(v -> v.compareTo(ceiling.get()) <= 0).orElse(false))
        .max(Comparator.comparing(b -> b.version().orElseThrow()));
  }

  /**
   * A rollback to {@code target}; {@code crdProblem} is null when olm-core's CRD rules allow it.
   */
  public static Rollback to(Bundle target, String crdProblem) {
    return new Rollback(Objects.requireNonNull(target, "target"), crdProblem);
  }

  private static Optional<Version> ceiling(SubscriptionToReconcile desired) {
    return desired.maxVersion() == null || desired.maxVersion().isBlank()
        ? Optional.empty()
        : Version.tryParse(desired.maxVersion());
  }
}
