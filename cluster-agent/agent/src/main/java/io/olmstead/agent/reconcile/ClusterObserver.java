package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads back what the agent installed, from the OperatorConditions it labelled. */
final class ClusterObserver {
  private final ResourceOperator resources;

  ClusterObserver(ResourceOperator resources) {
    this.resources = resources;
  }

  /** Subscriptions with at least one bundle in {@code namespace}, by name. */
  Map<String, ObservedSubscription> observe(String namespace) throws ResourceException {
    Map<String, List<ObservedBundle>> bySub = new LinkedHashMap<>();
    for (JsonNode oc : managedConditions()) {
      if (namespace.equals(oc.path("metadata").path("namespace").asText())) {
        ObservedBundle.from(oc)
            .ifPresent(b -> bySub.computeIfAbsent(b.subscription(), k -> new ArrayList<>()).add(b));
      }
    }
    Map<String, ObservedSubscription> out = new LinkedHashMap<>();
    bySub.forEach((name, bundles) -> out.put(name, new ObservedSubscription(name, bundles)));
    return out;
  }

  /**
   * Every namespace holding something the agent installed (so a restarted agent can clean up
   * removals).
   */
  Set<String> managedNamespaces() throws ResourceException {
    Set<String> namespaces = new LinkedHashSet<>();
    for (JsonNode oc : managedConditions()) {
      namespaces.add(oc.path("metadata").path("namespace").asText());
    }
    return namespaces;
  }

  private List<JsonNode> managedConditions() throws ResourceException {
    return resources.list(
        OperatorConditions.API_VERSION,
        OperatorConditions.KIND,
        Map.of(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE));
  }
}
