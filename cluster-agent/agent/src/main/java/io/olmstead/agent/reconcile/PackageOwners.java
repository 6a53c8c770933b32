package io.olmstead.agent.reconcile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One package, one subscription per namespace (OLM refuses two subscriptions to one package in a
 * namespace too: ConflictingSubscriptionsToSamePackage). The owner is the subscription that already
 * has the package installed, else the first desired one; any other desired subscription for that
 * package is reported {@code Failed/OwnershipConflict} (without naming the owner, which may be
 * another team's) and left out of resolution, so it never writes the owner's objects.
 */
final class PackageOwners {
  private PackageOwners() {}

  /** Removes second owners from {@code subs} and reports them on {@code board}. */
  static void refuseSecondOwners(
      String namespace,
      List<SubscriptionToReconcile> desired,
      Map<String, ObservedSubscription> observed,
      Map<String, SubscriptionToReconcile> subs,
      StatusBoard board) {
    Map<String, String> owners = new LinkedHashMap<>();
    observed.values().stream()
        .filter(o -> o.dependencyOf().isEmpty())
        .forEach(o -> o.current().ifPresent(b -> owners.putIfAbsent(b.packageName(), o.name())));
    for (SubscriptionToReconcile sub : desired) {
      String owner = owners.putIfAbsent(sub.packageName(), sub.name());
      if (owner != null && !owner.equals(sub.name())) {
        subs.remove(sub.name());
        board.publish(
            StatusBoard.conflict(
                sub,
                null,
                null,
                "package "
                    + sub.packageName()
                    + " in namespace "
                    + namespace
                    + " "
                    + WriteRules.OWNED_BY_ANOTHER
                    + "; remove one of the two subscriptions"));
      }
    }
  }
}
