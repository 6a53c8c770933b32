package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.OlmPresence;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Living beside OLM: a subscription for a package OLM already manages in its namespace (a CSV of
 * the package, or an OLM Subscription to it) is refused as {@code Failed/ManagedByOLM} naming the
 * CSV, before anything is written, so the agent never changes what OLM runs. Only read calls here,
 * and only where OLM's API is installed.
 */
final class OlmCoexistence {
  private final ResourceOperator resources;

  OlmCoexistence(ResourceOperator resources) {
    this.resources = resources;
  }

  /**
   * The subscriptions of {@code desired} OLM does not manage; the others are reported on {@code
   * board}.
   */
  List<SubscriptionToReconcile> allowed(
      String namespace, List<SubscriptionToReconcile> desired, StatusBoard board)
      throws ResourceException {
    if (desired.isEmpty() || !OlmPresence.installed(resources)) {
      return desired;
    }
    List<JsonNode> csvs =
        resources.listIn(OlmPresence.API_VERSION, OlmPresence.CSV_KIND, namespace);
    List<JsonNode> subscriptions =
        resources.listIn(OlmPresence.API_VERSION, OlmPresence.SUBSCRIPTION_KIND, namespace);
    List<SubscriptionToReconcile> allowed = new ArrayList<>();
    for (SubscriptionToReconcile sub : desired) {
      Optional<String> owner = OlmPresence.managedBy(sub.packageName(), csvs, subscriptions);
      if (owner.isEmpty()) {
        allowed.add(sub);
      } else {
        board.publish(
            StatusBoard.managedByOlm(
                sub,
                "package "
                    + sub.packageName()
                    + " in namespace "
                    + namespace
                    + " is managed by OLM ("
                    + owner.get()
                    + "); Olmstead leaves it to OLM and writes nothing"));
      }
    }
    return allowed;
  }
}
