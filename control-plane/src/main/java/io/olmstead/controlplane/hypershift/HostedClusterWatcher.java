package io.olmstead.controlplane.hypershift;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.olmstead.controlplane.hypershift.Decision.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the management cluster: polls for the HostedCluster CRD (it may arrive after the control plane), then runs
 * a fabric8 informer on HostedClusters in all namespaces and one on the Secrets of each namespace holding
 * HostedClusters (their kubeconfig secrets). Events only queue work; one thread of its own decides and applies the
 * queued HostedClusters in order, up to {@link #BATCH} per transaction (one by one when a batch fails, so a broken
 * object delays nothing but itself), and never on an event loop. Every
 * {@code resync} seconds every HostedCluster is decided again and clusters whose HostedCluster is gone are retired.
 */
final class HostedClusterWatcher implements AutoCloseable {
  static final String CRD = "hostedclusters.hypershift.openshift.io";
  static final ResourceDefinitionContext HOSTED_CLUSTERS = new ResourceDefinitionContext.Builder()
      .withGroup("hypershift.openshift.io").withVersion("v1beta1").withKind("HostedCluster")
      .withPlural("hostedclusters").withNamespaced(true).build();
  private static final Logger LOG = LoggerFactory.getLogger(HostedClusterWatcher.class);
  private static final long CRD_POLL_SECONDS = 5;
  private static final long APPLY_TIMEOUT_SECONDS = 30;
  private static final String SWEEP = "sweep";
  /** HostedClusters decided per transaction: bounded so one commit stays short (about seven statements each). */
  static final int BATCH = 50;

  private final KubernetesClient client;
  private final HostedStore store;
  private final HypershiftMetrics metrics;
  private final UpgradeGuard guard;
  private final long resyncMillis;
  private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "olmstead-hypershift");
    thread.setDaemon(true);
    return thread;
  });
  private final Set<String> pending = new LinkedHashSet<>();
  private final Map<String, SharedIndexInformer<Secret>> secrets = new ConcurrentHashMap<>();
  private final Map<String, String> reported = new ConcurrentHashMap<>();
  private volatile SharedIndexInformer<GenericKubernetesResource> hostedClusters;

  HostedClusterWatcher(KubernetesClient client, HostedStore store, HypershiftMetrics metrics, int resyncSeconds,
      UpgradeGuard guard) {
    this.guard = guard;
    this.client = client;
    this.store = store;
    this.metrics = metrics;
    this.resyncMillis = TimeUnit.SECONDS.toMillis(resyncSeconds);
  }

  void start() {
    worker.scheduleWithFixedDelay(this::checkCrd, 0, CRD_POLL_SECONDS, TimeUnit.SECONDS);
    worker.scheduleWithFixedDelay(this::resync, resyncMillis, resyncMillis, TimeUnit.MILLISECONDS);
  }

  /** Starts watching when the CRD is there, stops when it went away (without retiring anything). */
  private void checkCrd() {
    try {
      boolean present = client.apiextensions().v1().customResourceDefinitions().withName(CRD).get() != null;
      if (present && hostedClusters == null) {
        LOG.info("HostedCluster CRD found on the management cluster: watching HostedClusters in all namespaces");
        SharedIndexInformer<GenericKubernetesResource> informer = client.genericKubernetesResources(HOSTED_CLUSTERS)
            .inAnyNamespace().runnableInformer(resyncMillis);
        informer.addEventHandler(new HostedClusterEvents());
        hostedClusters = informer;
        informer.start().whenComplete((v, e) -> {
          metrics.watching(e == null);
          if (e != null) {
            // forgotten, so that the next CRD check tries again (e.g. once RBAC allows the list)
            metrics.failed("watch");
            LOG.warn("cannot watch HostedClusters (trying again in {} s): {}", CRD_POLL_SECONDS, e.toString());
            worker.execute(() -> {
              if (hostedClusters == informer) {
                hostedClusters = null;
                informer.close();
              }
            });
          }
        });
      } else if (!present && hostedClusters != null) {
        LOG.warn("the HostedCluster CRD is gone from the management cluster: watching stopped, clusters kept");
        stopInformers();
      }
    } catch (RuntimeException e) {
      metrics.failed("crd");
      LOG.warn("cannot read the HostedCluster CRD from the management cluster: {}", e.toString());
    }
  }

  private void resync() {
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    if (informer != null && informer.hasSynced()) {
      informer.getStore().listKeys().forEach(key -> enqueue("hc:" + key));
      enqueue(SWEEP);
    }
  }

  private void enqueue(String item) {
    synchronized (pending) {
      pending.add(item);
    }
    worker.execute(this::drain);
  }

  private void drain() {
    while (true) {
      List<String> batch = next();
      if (batch.isEmpty()) {
        return;
      }
      if (batch.get(0).startsWith("hc:")) {
        decide(batch);
        continue;
      }
      try {
        process(batch.get(0));
      } catch (Exception e) {
        metrics.failed("apply");
        LOG.warn("hypershift: {} not handled: {}", batch.get(0), e.toString());
      }
    }
  }

  /** The next run of up to {@value #BATCH} queued HostedClusters in order, or a single other item (sweep, gone). */
  private List<String> next() {
    List<String> batch = new ArrayList<>();
    synchronized (pending) {
      Iterator<String> queued = pending.iterator();
      while (queued.hasNext() && batch.size() < BATCH) {
        String item = queued.next();
        boolean hostedCluster = item.startsWith("hc:");
        if (!batch.isEmpty() && !hostedCluster) {
          break;
        }
        queued.remove();
        batch.add(item);
        if (!hostedCluster) {
          break;
        }
      }
    }
    return batch;
  }

  /**
   * Decides a run of HostedClusters in one transaction (a burst turning Available at once is one commit); when that
   * fails, one by one, so a HostedCluster that cannot be applied fails alone.
   */
  private void decide(List<String> items) {
    List<String> keys = new ArrayList<>();
    List<HostedStore.Input> inputs = new ArrayList<>();
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    for (String item : items) {
      try {
        GenericKubernetesResource object = informer == null ? null : informer.getStore().getByKey(item.substring(3));
        if (object != null) {
          HostedCluster hc = HostedCluster.of(asMap(object));
          watchSecretsOf(hc.namespace());
          inputs.add(new HostedStore.Input(hc, kubeconfigPresent(hc), d -> !d.reason().equals(reported.get(item))));
          keys.add(item);
        }
      } catch (RuntimeException e) {
        metrics.failed("apply");
        LOG.warn("hypershift: {} not handled: {}", item, e.toString());
      }
    }
    List<Decision> decisions = null;
    if (inputs.size() > 1) {
      try {
        decisions = await(store.reconcileAll(inputs, Instant.now()));
      } catch (Exception e) {
        LOG.debug("hypershift: a batch of {} failed ({}); deciding them one by one", inputs.size(), e.toString());
      }
    }
    for (int i = 0; i < inputs.size(); i++) {
      HostedStore.Input input = inputs.get(i);
      try {
        Decision decision = decisions != null ? decisions.get(i)
            : await(store.reconcile(input.hc(), input.kubeconfigPresent(), Instant.now(), input.fresh()));
        decided(keys.get(i), input.hc(), decision);
      } catch (Exception e) {
        metrics.failed("apply");
        LOG.warn("hypershift: {} not handled: {}", keys.get(i), e.toString());
      }
    }
  }

  private void decided(String item, HostedCluster hc, Decision decision) throws Exception {
    report(item, decision);
    if (decision.kind() == Kind.ENROLL || decision.kind() == Kind.UPDATE || decision.kind() == Kind.UNCHANGED) {
      await(guard.check(decision.cluster(), hc));
    } else {
      guard.clear(decision.cluster());
    }
  }

  private void process(String item) throws Exception {
    if (item.equals(SWEEP)) {
      sweep();
    } else if (item.startsWith("gone:")) {
      Decision gone = await(store.gone(item.substring("gone:".length())));
      report(item, gone);
      guard.clear(gone.cluster());
    }
  }

  /** Retires the clusters of live clusterIDs no HostedCluster carries any more (missed deletions, restarts). */
  private void sweep() throws Exception {
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    if (informer == null || !informer.hasSynced()) {
      return;
    }
    List<GenericKubernetesResource> all = informer.getStore().list();
    metrics.hostedClusters(all.size());
    Set<String> present = new HashSet<>();
    all.forEach(object -> present.add(HostedCluster.of(asMap(object)).clusterId()));
    for (String id : await(store.liveIds())) {
      if (!present.contains(id)) {
        report("gone:" + id, await(store.gone(id)));
      }
    }
  }

  private boolean kubeconfigPresent(HostedCluster hc) {
    SharedIndexInformer<Secret> informer = secrets.get(hc.namespace());
    if (hc.kubeconfigSecret() == null || informer == null) {
      return false;
    }
    Secret secret = informer.getStore().getByKey(hc.namespace() + "/" + hc.kubeconfigSecret());
    return secret != null && ((secret.getData() != null && notBlank(secret.getData().get("kubeconfig")))
        || (secret.getStringData() != null && notBlank(secret.getStringData().get("kubeconfig"))));
  }

  /** One Secret informer per namespace holding HostedClusters (RBAC grants secrets there only). */
  private void watchSecretsOf(String namespace) {
    if (namespace == null || secrets.containsKey(namespace)) {
      return;
    }
    SharedIndexInformer<Secret> informer = client.secrets().inNamespace(namespace).runnableInformer(resyncMillis);
    informer.addEventHandler(new SecretEvents());
    secrets.put(namespace, informer);
    informer.start().whenComplete((v, e) -> {
      if (e != null) {
        metrics.failed("secrets");
        LOG.warn("cannot watch the secrets of namespace {} (its HostedClusters are not enrolled until it can): {}",
            namespace, e.toString());
        secrets.remove(namespace, informer);
        informer.close();
      }
    });
  }

  /** Logs (and counts) a decision; skips and conflicts are logged when their reason changes, not on every resync. */
  private void report(String item, Decision decision) {
    metrics.decided(decision);
    if (decision.kind() == Kind.IGNORE || decision.kind() == Kind.CONFLICT) {
      if (!decision.reason().equals(reported.put(item, decision.reason()))) {
        LOG.info("hypershift: {} {} ({}): {}", decision.kind().name().toLowerCase(java.util.Locale.ROOT),
            decision.cluster() == null ? item : decision.cluster(), decision.reason(), decision.detail());
      }
    } else if (decision.kind() != Kind.UNCHANGED) {
      reported.remove(item);
      LOG.info("hypershift: cluster {} {} ({})", decision.cluster(), decision.kind().name().toLowerCase(
          java.util.Locale.ROOT), decision.reason());
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> asMap(GenericKubernetesResource object) {
    return client.getKubernetesSerialization().convertValue(object, Map.class);
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(APPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }

  private void stopInformers() {
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    hostedClusters = null;
    if (informer != null) {
      informer.close();
    }
    secrets.values().forEach(SharedIndexInformer::close);
    secrets.clear();
    metrics.watching(false);
  }

  @Override
  public void close() {
    worker.shutdownNow();
    stopInformers();
    client.close();
  }

  /** HostedCluster events queue the HostedCluster; a deletion queues its clusterID's retirement. */
  private final class HostedClusterEvents implements ResourceEventHandler<GenericKubernetesResource> {
    @Override
    public void onAdd(GenericKubernetesResource object) {
      enqueue("hc:" + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName());
    }

    @Override
    public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
      onAdd(after);
    }

    @Override
    public void onDelete(GenericKubernetesResource object, boolean finalStateUnknown) {
      String clusterId = HostedCluster.of(asMap(object)).clusterId();
      if (clusterId != null) {
        enqueue("gone:" + clusterId);
      }
    }
  }

  /** A kubeconfig secret's arrival, change or removal queues the HostedClusters that name it. */
  private final class SecretEvents implements ResourceEventHandler<Secret> {
    @Override
    public void onAdd(Secret secret) {
      SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
      if (informer == null) {
        return;
      }
      String namespace = secret.getMetadata().getNamespace();
      String name = secret.getMetadata().getName();
      // read the one field in place: converting every HostedCluster on every secret event would cost O(n) parses
      for (GenericKubernetesResource object : informer.getStore().list()) {
        if (namespace.equals(object.getMetadata().getNamespace())
            && name.equals(object.get("status", "kubeconfig", "name"))) {
          enqueue("hc:" + namespace + "/" + object.getMetadata().getName());
        }
      }
    }

    @Override
    public void onUpdate(Secret before, Secret after) {
      onAdd(after);
    }

    @Override
    public void onDelete(Secret secret, boolean finalStateUnknown) {
      onAdd(secret);
    }
  }
}
