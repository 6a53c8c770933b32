package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.semver.Version;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What the cluster holds for one subscription: normally one bundle, two while an upgrade is in
 * progress.
 */
public record ObservedSubscription(String name, List<ObservedBundle> bundles) {

  private static final Comparator<ObservedBundle> BY_VERSION =
      Comparator.comparing(
          (ObservedBundle b) -> b.semver().orElse(null),
          Comparator.nullsFirst(Comparator.<Version>naturalOrder()));

  public ObservedSubscription {
    bundles = List.copyOf(bundles);
  }

  /** The newest bundle that reached Succeeded: the one running until a replacement succeeds. */
  public Optional<ObservedBundle> installed() {
    return bundles.stream().filter(ObservedBundle::succeededOnce).max(BY_VERSION);
  }

  /** A bundle being installed (not yet Succeeded), newer than the installed one. */
  public Optional<ObservedBundle> inProgress() {
    Optional<ObservedBundle> installed = installed();
    return bundles.stream()
        .filter(b -> !b.succeededOnce())
        .filter(b -> installed.isEmpty() || BY_VERSION.compare(b, installed.get()) > 0)
        .max(BY_VERSION);
  }

  /** The bundle the subscription is about: the one in progress, else the installed one. */
  public Optional<ObservedBundle> current() {
    return inProgress().or(this::installed);
  }

  /** Set when the agent created this subscription to satisfy another's dependency. */
  public Optional<String> dependencyOf() {
    return bundles.stream()
        .map(ObservedBundle::dependencyOf)
        .filter(d -> d != null && !d.isEmpty())
        .findFirst();
  }
}
