package io.olmstead.agent.reconcile;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Passes started and finished per namespace of one cluster, read-only to everyone but the loop:
 * tests (and anything that needs to know passes ran, such as a metric) await passes rather than
 * waiting for time to pass. Passes of one namespace never overlap, so once {@code finished} reaches
 * a {@code started} read earlier plus n, n passes began after that read and have ended.
 */
final class PassCounts {
  private static final AgentReconciler.Passes NONE = new AgentReconciler.Passes(0, 0);
  private final Map<String, AgentReconciler.Passes> byNamespace = new ConcurrentHashMap<>();

  void started(String namespace) {
    byNamespace.merge(namespace, new AgentReconciler.Passes(1, 0), PassCounts::plus);
  }

  void finished(String namespace) {
    byNamespace.merge(namespace, new AgentReconciler.Passes(0, 1), PassCounts::plus);
  }

  /** The counts of {@code namespace} (zero when it never had a pass). */
  AgentReconciler.Passes of(String namespace) {
    return byNamespace.getOrDefault(namespace, NONE);
  }

  /**
   * Forgets namespaces no longer reconciled (neither desired nor holding managed objects) once no
   * pass over them is under way, so the counts stay as many as the namespaces in use.
   */
  void retain(Set<String> namespaces) {
    for (String namespace : byNamespace.keySet()) {
      if (!namespaces.contains(namespace)) {
        byNamespace.computeIfPresent(namespace, (k, p) -> p.started() == p.finished() ? null : p);
      }
    }
  }

  private static AgentReconciler.Passes plus(AgentReconciler.Passes a, AgentReconciler.Passes b) {
    return new AgentReconciler.Passes(a.started() + b.started(), a.finished() + b.finished());
  }
}
