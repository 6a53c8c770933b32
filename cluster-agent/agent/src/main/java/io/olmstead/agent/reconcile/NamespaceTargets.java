package io.olmstead.agent.reconcile;

import io.olmstead.agent.k8s.ManagedLabels;
import java.util.Comparator;
import java.util.List;

/**
 * One operator group per namespace, as in OLM: an operator the agent installs to satisfy a
 * dependency watches what the namespace's operator group watches, i.e. the targets of the
 * subscription that needs it (or, once that one is gone from the desired state, of the namespace's
 * first desired subscription).
 */
final class NamespaceTargets {
  private NamespaceTargets() {}

  /**
   * The targets for a dependency of {@code parent} (a label value or name; null: unknown) among
   * {@code desired}.
   */
  static List<String> of(String parent, List<SubscriptionToReconcile> desired) {
    return desired.stream()
        .filter(
            d ->
                parent != null
                    && (d.name().equals(parent) || ManagedLabels.value(d.name()).equals(parent)))
        .findFirst()
        .or(() -> desired.stream().min(Comparator.comparing(SubscriptionToReconcile::name)))
        .map(SubscriptionToReconcile::targetNamespaces)
        .orElse(List.of());
  }
}
