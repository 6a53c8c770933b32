package io.olmstead.agent.inventory;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.reconcile.ObservedBundle;
import io.olmstead.agent.reconcile.ObservedSubscription;
import io.olmstead.agent.reconcile.SubscriptionStatus;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolVersions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Builds the cluster's inventory: every operator the agent installed (read back from its
 * OperatorConditions, so dependencies are there with the subscription they serve), per owned CRD
 * the number of custom resources, the operator's own pods, and per custom resource the pods it owns
 * (an application stack). Bounded by {@link InventoryBounds}; blocking (fabric8), so it runs on the
 * reporter's own thread.
 */
public final class InventoryCollector {
  private final KubernetesClient client;
  private final ResourceOperator resources;
  private final Supplier<Map<String, SubscriptionStatus>> statuses;

  public InventoryCollector(
      KubernetesClient client, Supplier<Map<String, SubscriptionStatus>> statuses) {
    this.client = client;
    this.resources = new ResourceOperator(client, new ResourceKinds());
    this.statuses = statuses;
  }

  /** One operator being collected: its record and what its CRDs hold. */
  private record Found(
      String namespace,
      ObservedBundle bundle,
      String subscription,
      List<CustomResourceScan.Result> crds) {}

  public Inventory collect() throws ResourceException {
    Map<String, List<ObservedBundle>> bySub = new TreeMap<>();
    for (JsonNode oc :
        resources.list(
            OperatorConditions.API_VERSION,
            OperatorConditions.KIND,
            Map.of(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE))) {
      String ns = oc.path("metadata").path("namespace").asText();
      ObservedBundle.from(oc)
          .ifPresent(
              b ->
                  bySub
                      .computeIfAbsent(ns + '/' + b.subscription(), k -> new ArrayList<>())
                      .add(b));
    }
    boolean truncated = bySub.size() > InventoryBounds.OPERATORS;
    List<Found> found = new ArrayList<>();
    Set<String> relationKeys = new HashSet<>();
    int stackBudget = InventoryBounds.STACK_CRS;
    for (var entry : bySub.entrySet()) {
      if (found.size() >= InventoryBounds.OPERATORS) {
        break;
      }
      String ns = entry.getKey().substring(0, entry.getKey().indexOf('/'));
      ObservedSubscription sub =
          new ObservedSubscription(entry.getValue().get(0).subscription(), entry.getValue());
      ObservedBundle bundle = sub.current().orElse(entry.getValue().get(0));
      List<CustomResourceScan.Result> crds = new ArrayList<>();
      int keep = Math.min(InventoryBounds.STACK_CRS_PER_OPERATOR, stackBudget);
      truncated |= bundle.crds().size() > InventoryBounds.CRDS_PER_OPERATOR;
      for (String crd : bundle.crds().stream().limit(InventoryBounds.CRDS_PER_OPERATOR).toList()) {
        var scanned = CustomResourceScan.scan(client, crd, keep);
        if (scanned.isPresent()) {
          crds.add(scanned.get());
          scanned.get().relationships().forEach(rel -> relationKeys.add(rel.key()));
          keep -= scanned.get().instances().size();
          stackBudget -= scanned.get().instances().size();
        }
      }
      found.add(new Found(ns, bundle, sub.name(), crds));
    }
    Namespaces namespaces = new Namespaces(client, relationKeys);
    List<Inventory.Operator> operators = new ArrayList<>();
    Map<String, SubscriptionStatus> reported = statuses.get();
    for (Found f : found) {
      operators.add(operator(f, namespaces, reported.get(f.subscription())));
    }
    return InventoryFit.fit(
        new Inventory(
            ProtocolVersions.CURRENT,
            null,
            null,
            operators,
            truncated || namespaces.truncated ? Boolean.TRUE : null));
  }

  private Inventory.Operator operator(Found f, Namespaces namespaces, SubscriptionStatus status) {
    ObservedBundle b = f.bundle();
    List<Inventory.CustomResources> counts = new ArrayList<>();
    List<Inventory.Stack> stacks = new ArrayList<>();
    for (CustomResourceScan.Result crd : f.crds()) {
      counts.add(
          new Inventory.CustomResources(
              crd.crd(),
              InventoryFit.text(crd.kind(), 63),
              crd.count(),
              crd.capped() ? Boolean.TRUE : null));
      for (CustomResourceScan.Instance cr : crd.instances()) {
        if (stacks.size() >= InventoryBounds.STACKS_PER_OPERATOR) {
          break;
        }
        OwnerGraph graph = namespaces.graph(cr.namespace());
        if (graph == null) {
          continue;
        }
        Set<String> roots = new HashSet<>();
        roots.add(cr.uid());
        crd.relationships().forEach(rel -> roots.addAll(graph.related(rel, cr.name())));
        List<OwnerGraph.PodFacts> pods = graph.podsOwnedBy(roots);
        if (!pods.isEmpty()) {
          stacks.add(
              new Inventory.Stack(
                  InventoryFit.text(crd.kind(), 63),
                  cr.namespace(),
                  cr.name(),
                  OwnerGraph.sum(pods, namespaces.usage(cr.namespace()))));
        }
      }
    }
    Inventory.Pods own = null;
    OwnerGraph graph = namespaces.graph(f.namespace());
    if (graph != null) {
      List<String> deployments =
          client
              .apps()
              .deployments()
              .inNamespace(f.namespace())
              .withLabels(ManagedLabels.selector(f.subscription(), f.namespace()))
              .list()
              .getItems()
              .stream()
              .map(Deployment::getMetadata)
              .map(m -> m.getUid())
              .filter(u -> u != null)
              .toList();
      own = OwnerGraph.sum(graph.podsOwnedBy(deployments), namespaces.usage(f.namespace()));
    }
    String phase = status != null ? status.phase() : b.phase().wireName();
    String reason = status != null ? status.reason() : null;
    return new Inventory.Operator(
        InventoryFit.text(f.subscription(), 253),
        f.namespace(),
        InventoryFit.text(b.packageName().isEmpty() ? f.subscription() : b.packageName(), 253),
        InventoryFit.text(b.bundle(), 512),
        InventoryFit.text(b.version(), 128),
        InventoryFit.phase(phase),
        InventoryFit.text(reason, 256),
        InventoryFit.text(b.dependencyOf(), 253),
        counts,
        own,
        stacks);
  }

  /**
   * The namespaces read for this report (at most {@link InventoryBounds#NAMESPACES}) and their
   * pods' usage.
   */
  private static final class Namespaces {
    private final KubernetesClient client;
    private final Set<String> relationKeys;
    private final Map<String, OwnerGraph> graphs = new HashMap<>();
    private final Map<String, Map<String, Inventory.Resources>> usage = new HashMap<>();
    private final boolean metricsServed;
    private boolean truncated;

    Namespaces(KubernetesClient client, Set<String> relationKeys) {
      this.client = client;
      this.relationKeys = relationKeys;
      this.metricsServed = PodMetrics.served(client);
    }

    OwnerGraph graph(String namespace) {
      if (namespace == null) {
        return null;
      }
      if (!graphs.containsKey(namespace) && graphs.size() >= InventoryBounds.NAMESPACES) {
        truncated = true;
        return null;
      }
      return graphs.computeIfAbsent(
          namespace,
          ns -> {
            NamespaceScan.Result r = NamespaceScan.scan(client, ns, relationKeys);
            truncated |= r.truncated();
            return r.graph();
          });
    }

    Map<String, Inventory.Resources> usage(String namespace) {
      return metricsServed
          ? usage.computeIfAbsent(namespace, ns -> PodMetrics.usage(client, ns))
          : null;
    }
  }
}
