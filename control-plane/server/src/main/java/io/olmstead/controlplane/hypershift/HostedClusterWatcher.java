package io.olmstead.controlplane.hypershift;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.olmstead.controlplane.config.HypershiftSettings;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the management cluster: polls for the HostedCluster CRD (it may arrive after the control
 * plane), then runs a fabric8 informer on HostedClusters in all namespaces and one on the Secrets
 * of each namespace holding HostedClusters (their kubeconfig secrets). Events only queue work on
 * the {@link HostedClusterQueue}, which one thread of its own decides and applies, never on an
 * event loop. Every {@code resync} every HostedCluster is decided again and clusters whose
 * HostedCluster is gone are retired.
 */
final class HostedClusterWatcher implements AutoCloseable, HostedClusterQueue.Source {
  static final String CRD = "hostedclusters.hypershift.openshift.io";
  static final ResourceDefinitionContext HOSTED_CLUSTERS =
      new ResourceDefinitionContext.Builder()
          .withGroup("hypershift.openshift.io")
          .withVersion("v1beta1")
          .withKind("HostedCluster")
          .withPlural("hostedclusters")
          .withNamespaced(true)
          .build();
  private static final Logger LOG = LoggerFactory.getLogger(HostedClusterWatcher.class);

  private final KubernetesClient client;
  private final HypershiftMetrics metrics;
  private final long resyncMillis;
  private final long crdPollMillis;
  private final ScheduledExecutorService worker =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "olmstead-hypershift");
            thread.setDaemon(true);
            return thread;
          });
  private final HostedClusterQueue queue;
  private final Map<String, SharedIndexInformer<Secret>> secrets = new ConcurrentHashMap<>();
  private volatile SharedIndexInformer<GenericKubernetesResource> hostedClusters;
  private volatile BiConsumer<String, String> adminKubeconfigChanged = (namespace, name) -> {};

  HostedClusterWatcher(
      KubernetesClient client,
      HostedStore store,
      HypershiftMetrics metrics,
      HypershiftSettings settings,
      UpgradeGuard guard) {
    this.client = client;
    this.metrics = metrics;
    this.resyncMillis = settings.resync().toMillis();
    this.crdPollMillis = settings.crdPoll().toMillis();
    this.queue = new HostedClusterQueue(this, store, metrics, guard, worker);
  }

  /**
   * Told (namespace, HostedCluster name) when a {@code <name>-admin-kubeconfig} Secret arrives or
   * its data changes: per-cluster agents that copy it roll at once rather than at the next resync.
   */
  void onAdminKubeconfigChange(BiConsumer<String, String> listener) {
    adminKubeconfigChanged = listener;
  }

  /** See {@link HostedClusterQueue#skipReason}. */
  String skipReason(String key) {
    return queue.skipReason(key);
  }

  void start() {
    worker.scheduleWithFixedDelay(this::checkCrd, 0, crdPollMillis, TimeUnit.MILLISECONDS);
    worker.scheduleWithFixedDelay(this::resync, resyncMillis, resyncMillis, TimeUnit.MILLISECONDS);
  }

  /** Starts watching when the CRD is there, stops when it went away (without retiring anything). */
  private void checkCrd() {
    try {
      boolean present =
          client.apiextensions().v1().customResourceDefinitions().withName(CRD).get() != null;
      if (present && hostedClusters == null) {
        LOG.info(
            "HostedCluster CRD found on the management cluster: watching HostedClusters in all namespaces");
        SharedIndexInformer<GenericKubernetesResource> informer =
            client
                .genericKubernetesResources(HOSTED_CLUSTERS)
                .inAnyNamespace()
                .runnableInformer(resyncMillis);
        informer.addEventHandler(new HostedClusterEvents());
        hostedClusters = informer;
        informer
            .start()
            .whenComplete(
                (v, e) -> {
                  metrics.watching(e == null);
                  if (e != null) {
                    // forgotten, so that the next CRD check tries again (e.g. once RBAC allows the
                    // list)
                    metrics.failed("watch");
                    LOG.warn(
                        "cannot watch HostedClusters (trying again in {} ms): {}",
                        crdPollMillis,
                        e.toString());
                    worker.execute(
                        () -> {
                          if (hostedClusters == informer) {
                            hostedClusters = null;
                            informer.close();
                          }
                        });
                  }
                });
      } else if (!present && hostedClusters != null) {
        LOG.warn(
            "the HostedCluster CRD is gone from the management cluster: watching stopped, clusters kept");
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
      informer.getStore().listKeys().forEach(key -> queue.enqueue("hc:" + key));
      queue.enqueue(HostedClusterQueue.SWEEP);
    }
  }

  @Override
  public HostedCluster hostedCluster(String key) {
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    GenericKubernetesResource object = informer == null ? null : informer.getStore().getByKey(key);
    return object == null ? null : HostedCluster.of(asMap(object));
  }

  @Override
  public List<HostedCluster> synced() {
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    if (informer == null || !informer.hasSynced()) {
      return null;
    }
    return informer.getStore().list().stream()
        .map(object -> HostedCluster.of(asMap(object)))
        .toList();
  }

  @Override
  public boolean kubeconfigPresent(HostedCluster hc) {
    SharedIndexInformer<Secret> informer = secrets.get(hc.namespace());
    if (hc.kubeconfigSecret() == null || informer == null) {
      return false;
    }
    Secret secret = informer.getStore().getByKey(hc.namespace() + "/" + hc.kubeconfigSecret());
    return secret != null
        && ((secret.getData() != null && notBlank(secret.getData().get("kubeconfig")))
            || (secret.getStringData() != null
                && notBlank(secret.getStringData().get("kubeconfig"))));
  }

  /** One Secret informer per namespace holding HostedClusters (RBAC grants secrets there only). */
  @Override
  public void watchSecretsOf(String namespace) {
    if (namespace == null || secrets.containsKey(namespace)) {
      return;
    }
    SharedIndexInformer<Secret> informer =
        client.secrets().inNamespace(namespace).runnableInformer(resyncMillis);
    informer.addEventHandler(new SecretEvents());
    secrets.put(namespace, informer);
    informer
        .start()
        .whenComplete(
            (v, e) -> {
              if (e == null) {
                queueNamespace(namespace); // its HostedClusters waited for this listing
              } else {
                metrics.failed("secrets");
                LOG.warn(
                    "cannot watch the secrets of namespace {} (its HostedClusters are not enrolled until it can): {}",
                    namespace,
                    e.toString());
                secrets.remove(namespace, informer);
                informer.close();
              }
            });
  }

  @Override
  public boolean secretsListed(String namespace) {
    SharedIndexInformer<Secret> informer = secrets.get(namespace);
    return informer != null && informer.hasSynced();
  }

  private void queueNamespace(String namespace) {
    SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
    if (informer != null) {
      informer.getStore().list().stream()
          .filter(o -> namespace.equals(o.getMetadata().getNamespace()))
          .forEach(o -> queue.enqueue("hc:" + namespace + "/" + o.getMetadata().getName()));
    }
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> asMap(GenericKubernetesResource object) {
    return client.getKubernetesSerialization().convertValue(object, Map.class);
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
  private final class HostedClusterEvents
      implements ResourceEventHandler<GenericKubernetesResource> {
    @Override
    public void onAdd(GenericKubernetesResource object) {
      queue.enqueue(
          "hc:" + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName());
    }

    @Override
    public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
      onAdd(after);
    }

    @Override
    public void onDelete(GenericKubernetesResource object, boolean finalStateUnknown) {
      String clusterId = HostedCluster.of(asMap(object)).clusterId();
      if (clusterId != null) {
        queue.enqueue("gone:" + clusterId);
      }
    }
  }

  /**
   * A kubeconfig secret's arrival, change or removal queues the HostedClusters that name it; an
   * admin kubeconfig's arrival or changed data is also told to {@link #onAdminKubeconfigChange}
   * (not the informer's periodic resyncs).
   */
  private final class SecretEvents implements ResourceEventHandler<Secret> {
    private static final String ADMIN_SUFFIX = "-admin-kubeconfig";

    @Override
    public void onAdd(Secret secret) {
      adminKubeconfig(secret);
      queueNaming(secret);
    }

    private void adminKubeconfig(Secret secret) {
      String name = secret.getMetadata().getName();
      if (!name.endsWith(ADMIN_SUFFIX) || name.length() == ADMIN_SUFFIX.length()) {
        return;
      }
      String namespace = secret.getMetadata().getNamespace();
      String hostedCluster = name.substring(0, name.length() - ADMIN_SUFFIX.length());
      // only for a HostedCluster we know: anyone writing Secrets there must not grow what the
      // listener keeps
      SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
      if (informer != null
          && informer.getStore().getByKey(namespace + "/" + hostedCluster) != null) {
        adminKubeconfigChanged.accept(namespace, hostedCluster);
      }
    }

    private void queueNaming(Secret secret) {
      SharedIndexInformer<GenericKubernetesResource> informer = hostedClusters;
      if (informer == null) {
        return;
      }
      String namespace = secret.getMetadata().getNamespace();
      String name = secret.getMetadata().getName();
      // read the one field in place: converting every HostedCluster on every secret event would
      // cost O(n) parses
      for (GenericKubernetesResource object : informer.getStore().list()) {
        if (namespace.equals(object.getMetadata().getNamespace())
            && name.equals(object.get("status", "kubeconfig", "name"))) {
          queue.enqueue("hc:" + namespace + "/" + object.getMetadata().getName());
        }
      }
    }

    @Override
    public void onUpdate(Secret before, Secret after) {
      if (!Objects.equals(before.getData(), after.getData())
          || !Objects.equals(before.getStringData(), after.getStringData())) {
        adminKubeconfig(after);
      }
      queueNaming(after);
    }

    @Override
    public void onDelete(Secret secret, boolean finalStateUnknown) {
      queueNaming(secret);
    }
  }
}
