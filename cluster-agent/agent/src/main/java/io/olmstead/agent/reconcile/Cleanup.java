package io.olmstead.agent.reconcile;

import com.fasterxml.jackson.databind.JsonNode;
import io.olmstead.agent.k8s.ApplyOutcome;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.olmcore.installplan.ProvidedApiClusterRoles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what a subscription no longer needs, selecting by the ownership labels: the replaced
 * bundle's objects after an upgrade succeeded (which also removes objects the new bundle no longer
 * has), or everything of a removed subscription. CRDs are kept (custom resources are user data)
 * unless the subscription asked for their removal; their aggregated ClusterRoles go with the last
 * install of the package that owns them.
 */
final class Cleanup {
  private static final Logger LOG = LoggerFactory.getLogger(Cleanup.class);
  private static final ResourceKinds.Kind CRD =
      new ResourceKinds.Kind("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  private static final ResourceKinds.Kind CLUSTER_ROLE =
      new ResourceKinds.Kind("rbac.authorization.k8s.io/v1", "ClusterRole");

  private final ResourceOperator resources;

  Cleanup(ResourceOperator resources) {
    this.resources = resources;
  }

  /**
   * Deletes objects of {@code subscription} labelled with any bundle other than {@code keepBundle};
   * CRDs stay.
   */
  List<ApplyOutcome> sweepOtherBundles(
      String subscription, String namespace, String keepBundle, List<ResourceKinds.Kind> extraKinds)
      throws ResourceException {
    String keep = ManagedLabels.value(keepBundle);
    List<ApplyOutcome> deleted = new ArrayList<>();
    for (ResourceKinds.Kind kind : kinds(extraKinds)) {
      for (JsonNode object :
          resources.list(
              kind.apiVersion(), kind.kind(), ManagedLabels.selector(subscription, namespace))) {
        if (!keep.equals(
            object.path("metadata").path("labels").path(ManagedLabels.BUNDLE).asText())) {
          deleted.add(delete(kind, object));
        }
      }
    }
    if (!deleted.isEmpty()) {
      LOG.info(
          "subscription {}/{}: removed {} objects of replaced bundles (kept {})",
          namespace,
          subscription,
          deleted.size(),
          keepBundle);
    }
    return deleted;
  }

  /**
   * Uninstalls everything of {@code observed}; its CRDs too when it was subscribed with {@code
   * crds: Delete}.
   */
  List<ApplyOutcome> remove(ObservedSubscription observed, String namespace)
      throws ResourceException {
    Set<ResourceKinds.Kind> extra = new LinkedHashSet<>();
    Set<String> crds = new LinkedHashSet<>();
    boolean deleteCrds = false;
    for (ObservedBundle b : observed.bundles()) {
      extra.addAll(b.kinds());
      crds.addAll(b.crds());
      deleteCrds |= b.deleteCrds();
    }
    List<ResourceKinds.Kind> kinds = new ArrayList<>(kinds(List.copyOf(extra)));
    // The OperatorCondition is the agent's record of the subscription: delete it last so a crash
    // mid-way retries.
    kinds.remove(ResourceKinds.COMMON.get(ResourceKinds.COMMON.size() - 1));
    kinds.add(ResourceKinds.COMMON.get(ResourceKinds.COMMON.size() - 1));
    List<ApplyOutcome> deleted = new ArrayList<>();
    if (deleteCrds) {
      // CRDs carry no owner labels (they are shared); the subscription's record names them.
      for (String crd : crds) {
        deleted.add(resources.delete(CRD.apiVersion(), CRD.kind(), null, crd));
      }
    }
    deleted.addAll(removeSharedRoles(observed.name(), namespace, crds));
    for (ResourceKinds.Kind kind : kinds) {
      for (JsonNode object :
          resources.list(
              kind.apiVersion(), kind.kind(), ManagedLabels.selector(observed.name(), namespace))) {
        deleted.add(delete(kind, object));
      }
    }
    LOG.info(
        "subscription {}/{}: uninstalled ({} objects deleted, CRDs {})",
        namespace,
        observed.name(),
        deleted.size(),
        deleteCrds ? "deleted" : "kept");
    return deleted;
  }

  /**
   * Deletes the aggregated ClusterRoles of {@code crds} (shared like the CRDs, so without owner
   * labels) unless another install on the cluster, of any namespace, still has a bundle owning one
   * of those CRDs.
   */
  private List<ApplyOutcome> removeSharedRoles(
      String subscription, String namespace, Set<String> crds) throws ResourceException {
    Set<String> needed = new HashSet<>();
    Map<String, String> managed = Map.of(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE);
    Map<String, String> mine = ManagedLabels.selector(subscription, namespace);
    for (JsonNode oc :
        resources.list(OperatorConditions.API_VERSION, OperatorConditions.KIND, managed)) {
      JsonNode labels = oc.path("metadata").path("labels");
      boolean ofThisInstall =
          mine.entrySet().stream()
              .allMatch(e -> e.getValue().equals(labels.path(e.getKey()).asText()));
      if (!ofThisInstall) {
        ObservedBundle.from(oc).ifPresent(b -> needed.addAll(b.crds()));
      }
    }
    List<ApplyOutcome> deleted = new ArrayList<>();
    for (JsonNode role : resources.list(CLUSTER_ROLE.apiVersion(), CLUSTER_ROLE.kind(), managed)) {
      Optional<String> crd = ProvidedApiClusterRoles.crdOf(role);
      if (crd.isPresent() && crds.contains(crd.get()) && !needed.contains(crd.get())) {
        deleted.add(delete(CLUSTER_ROLE, role));
      }
    }
    return deleted;
  }

  private ApplyOutcome delete(ResourceKinds.Kind kind, JsonNode object) throws ResourceException {
    JsonNode meta = object.path("metadata");
    return resources.delete(
        kind.apiVersion(),
        kind.kind(),
        meta.path("namespace").asText(null),
        meta.path("name").asText());
  }

  private static List<ResourceKinds.Kind> kinds(List<ResourceKinds.Kind> extra) {
    Set<ResourceKinds.Kind> all = new LinkedHashSet<>(extra);
    all.addAll(ResourceKinds.COMMON);
    all.remove(CRD);
    return List.copyOf(all);
  }
}
