package io.olmstead.agent.reconcile;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import io.olmstead.agent.k8s.ManagedLabels;
import io.olmstead.agent.k8s.OperatorConditions;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.k8s.ResourceKinds;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The informers that turn a change to anything the agent manages into work on the operator
 * namespace owning it, so drift is restored at once rather than at the next resync. Each selects
 * {@code app.kubernetes.io/managed-by=olmstead}: the agent caches its own objects, never the whole
 * cluster, and of those only the metadata its routing reads (key, resourceVersion, labels,
 * annotations): a bundle's CRDs (cert-manager's hold megabytes of schema) and Deployments are not
 * kept in memory once per served cluster (a pool replica serves hundreds).
 */
final class ManagedInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ManagedInformers.class);
  static final ResourceKinds.Kind CRD =
      new ResourceKinds.Kind("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  private static final ResourceKinds.Kind CONDITION =
      new ResourceKinds.Kind(OperatorConditions.API_VERSION, OperatorConditions.KIND);

  /**
   * The built-in kinds an install plan creates, always served, so their informers start with the
   * agent. Bundle extras of other kinds (ServiceMonitor, ...) are left to the resync: their kind
   * may not be served, and an informer on an absent kind stops. OperatorConditions are watched once
   * their CRD is ({@link #watchOperatorConditions}).
   */
  static final List<ResourceKinds.Kind> OWNED =
      ResourceKinds.COMMON.stream().filter(k -> !k.equals(CONDITION)).toList();

  private final KubernetesClient client;
  private final ResourceKinds kinds;
  private final Consumer<String> enqueue;
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();
  private volatile SharedIndexInformer<GenericKubernetesResource> conditions;
  private boolean started;
  private boolean conditionsStarting;
  private boolean closed;

  ManagedInformers(KubernetesClient client, ResourceKinds kinds, Consumer<String> enqueue) {
    this.client = client;
    this.kinds = kinds;
    this.enqueue = enqueue;
  }

  /**
   * Starts one informer per owned kind and one on the agent's CRDs; each has listed its objects
   * when this returns.
   */
  synchronized void start() throws ResourceException {
    if (started || closed) {
      return;
    }
    started = true;
    try {
      for (ResourceKinds.Kind kind : OWNED) {
        informers.add(inform(kind, o -> ownerNamespace(o).stream()));
      }
      // Shared CRDs carry the managed-by label but no owner labels (those would flip between the
      // subscriptions sharing
      // them on every pass). The label still selects exactly the agent's CRDs; an event is routed
      // by name to the
      // namespaces whose bundles recorded the CRD on their OperatorCondition, read from that
      // informer's cache, so the
      // event thread makes no API call.
      informers.add(
          inform(
              CRD, o -> namespacesUsing(o.getMetadata().getName(), cachedConditions()).stream()));
    } catch (KubernetesClientException e) {
      closeInformers();
      started = false;
      throw new ResourceException("informers could not start: " + e.getMessage(), e.getCode(), e);
    }
    LOG.debug(
        "watching {} kinds labelled {}={}",
        informers.size(),
        ManagedLabels.MANAGED_BY,
        ManagedLabels.MANAGED_BY_VALUE);
  }

  /**
   * Starts the OperatorCondition informer once their CRD is served (an informer on an absent kind
   * would stop), so an operator flipping Upgradeable, or a user setting an override, is acted on at
   * once; idempotent.
   */
  void watchOperatorConditions() {
    synchronized (this) {
      if (!started || closed || conditionsStarting) {
        return;
      }
      conditionsStarting = true;
    }
    SharedIndexInformer<GenericKubernetesResource> informer;
    try {
      informer =
          inform(
              CONDITION,
              o -> ownerNamespace(o).stream()); // blocks for the first list: not under the lock
    } catch (KubernetesClientException e) {
      synchronized (this) {
        conditionsStarting = false;
      }
      LOG.warn(
          "OperatorCondition informer could not start, the next pass tries again: {}",
          e.getMessage());
      return;
    }
    synchronized (this) {
      if (closed) {
        informer.close(); // closed while it was starting
      } else {
        conditions = informer;
        informers.add(informer);
      }
    }
  }

  /**
   * The operator namespace an object belongs to: a label every applied object carries,
   * cluster-scoped ones too.
   */
  static Optional<String> ownerNamespace(HasMetadata object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    String ns = labels == null ? null : labels.get(ManagedLabels.NAMESPACE);
    return ns == null || ns.isEmpty() ? Optional.empty() : Optional.of(ns);
  }

  /**
   * The namespaces whose bundles use {@code crd} by their OperatorConditions' record; all of them
   * for the OperatorCondition CRD itself, which every pass ensures.
   */
  static Set<String> namespacesUsing(
      String crd, Collection<? extends HasMetadata> operatorConditions) {
    Set<String> namespaces = new LinkedHashSet<>();
    for (HasMetadata oc : operatorConditions) {
      Map<String, String> annotations = oc.getMetadata().getAnnotations();
      String recorded =
          annotations == null ? "" : annotations.getOrDefault(ObservedBundle.CRDS, "");
      if (OperatorConditions.CRD_NAME.equals(crd) || List.of(recorded.split(",")).contains(crd)) {
        namespaces.add(oc.getMetadata().getNamespace());
      }
    }
    namespaces.remove(null);
    return namespaces;
  }

  private Collection<GenericKubernetesResource> cachedConditions() {
    SharedIndexInformer<GenericKubernetesResource> informer = conditions;
    // Not watched yet: the CRD of OperatorConditions was never served, so no bundle has recorded
    // anything.
    return informer == null ? List.of() : informer.getStore().list();
  }

  private SharedIndexInformer<GenericKubernetesResource> inform(
      ResourceKinds.Kind kind, Function<GenericKubernetesResource, Stream<String>> keys) {
    var resources =
        client.genericKubernetesResources(kinds.context(kind.apiVersion(), kind.kind()));
    var selected =
        kinds.namespaced(kind.apiVersion(), kind.kind())
            ? resources
                .inAnyNamespace()
                .withLabel(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE)
            : resources.withLabel(ManagedLabels.MANAGED_BY, ManagedLabels.MANAGED_BY_VALUE);
    SharedIndexInformer<GenericKubernetesResource> informer =
        selected
            .runnableInformer(0)
            .itemStore(
                new ReducedStateItemStore<>(
                    ReducedStateItemStore.NAME_KEY_STATE,
                    GenericKubernetesResource.class,
                    client.getKubernetesSerialization(),
                    "metadata.labels",
                    "metadata.annotations"));
    informer.addEventHandler(new Enqueue(keys, enqueue));
    informer.run(); // as inform(): returns once the first list is in
    return informer;
  }

  @Override
  public synchronized void close() {
    closed = true;
    closeInformers();
  }

  private void closeInformers() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
    conditions = null;
  }

  /**
   * Queues the keys of every real change; an update with an unchanged resourceVersion is a cache
   * resync, not news.
   */
  private record Enqueue(
      Function<GenericKubernetesResource, Stream<String>> keys, Consumer<String> queue)
      implements ResourceEventHandler<GenericKubernetesResource> {
    @Override
    public void onAdd(GenericKubernetesResource obj) {
      keys.apply(obj).forEach(queue);
    }

    @Override
    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
      if (!Objects.equals(
          oldObj.getMetadata().getResourceVersion(), newObj.getMetadata().getResourceVersion())) {
        keys.apply(newObj).forEach(queue);
      }
    }

    @Override
    public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
      keys.apply(obj).forEach(queue);
    }
  }
}
