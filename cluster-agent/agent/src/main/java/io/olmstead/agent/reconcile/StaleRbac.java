package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceOperator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the RBAC of the installed bundle that its plan no longer holds: tenant Roles and
 * RoleBindings of target namespaces the operator group dropped, ClusterRoles and
 * ClusterRoleBindings lifted for AllNamespaces after a change to another mode. Objects of other
 * bundles are left to the upgrade sweep ({@link Cleanup}).
 */
final class StaleRbac {
  private static final Logger LOG = LoggerFactory.getLogger(StaleRbac.class);
  private static final String RBAC_API = "rbac.authorization.k8s.io/v1";
  private static final List<String> KINDS =
      List.of("RoleBinding", "Role", "ClusterRoleBinding", "ClusterRole");

  private final ResourceOperator resources;

  StaleRbac(ResourceOperator resources) {
    this.resources = resources;
  }

  /**
   * Deletes objects of {@code sub} and {@code bundle} of the RBAC kinds that are not among {@code
   * planned}.
   */
  List<ApplyOutcome> prune(SubscriptionToReconcile sub, String bundle, List<JsonNode> planned)
      throws ResourceException {
    Map<String, Set<String>> wanted = new HashMap<>();
    for (JsonNode o : planned) {
      wanted.computeIfAbsent(o.path("kind").asText(), k -> new HashSet<>()).add(key(o));
    }
    String bundleLabel = ManagedLabels.value(bundle);
    List<ApplyOutcome> deleted = new ArrayList<>();
    for (String kind : KINDS) {
      for (JsonNode o :
          resources.list(RBAC_API, kind, ManagedLabels.selector(sub.name(), sub.namespace()))) {
        boolean ofThisBundle =
            bundleLabel.equals(
                o.path("metadata").path("labels").path(ManagedLabels.BUNDLE).asText());
        if (ofThisBundle && !wanted.getOrDefault(kind, Set.of()).contains(key(o))) {
          deleted.add(
              resources.delete(
                  RBAC_API,
                  kind,
                  o.path("metadata").path("namespace").asText(null),
                  o.path("metadata").path("name").asText()));
        }
      }
    }
    if (!deleted.isEmpty()) {
      LOG.info(
          "subscription {}/{}: removed RBAC its operator group no longer needs: {}",
          sub.namespace(),
          sub.name(),
          deleted.stream().map(ApplyOutcome::ref).toList());
    }
    return deleted;
  }

  private static String key(JsonNode o) {
    return o.path("metadata").path("namespace").asText("")
        + "/"
        + o.path("metadata").path("name").asText();
  }
}
