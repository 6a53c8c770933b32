package io.olmstead.controlplane.hypershift.percluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentObjects.GuestKubeconfig;
import io.olmstead.controlplane.hypershift.percluster.HostedAgentStore.Hosted;
import io.vertx.sqlclient.Pool;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-cluster hosted agents, run by the HyperShift leader on a thread of its own (fabric8 calls
 * block). Every {@code assignSeconds} it reads the hypershift-enrolled clusters and acts on those
 * whose agent credential changed since it last deployed (new, revoked, rotated, retired); every
 * {@code resync} it checks them all against the management cluster. In per-cluster mode a live
 * cluster gets {@link HostedAgentObjects} in its hosted control plane namespace (with a freshly
 * issued credential whenever the Secret's is not the live one); a retired cluster, or every cluster
 * in pool mode, has them removed. Credentials are never logged.
 */
public final class HostedAgents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HostedAgents.class);
  private static final long AWAIT_SECONDS = 30;

  private final KubernetesClient client;
  private final HostedAgentStore store;
  private final PoolSettings settings;
  private final long resyncNanos;
  private final ScheduledExecutorService worker =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "olmstead-hosted-agents");
            thread.setDaemon(true);
            return thread;
          });

  /** cluster -> hex hash of the credential its deployed agent holds. */
  private final Map<String, String> deployed = new ConcurrentHashMap<>();

  private final Map<String, String> waiting = new ConcurrentHashMap<>();

  /**
   * cluster -> a credential issued for it whose objects are not applied yet (memory only, never
   * logged).
   */
  private final Map<String, String> unapplied = new ConcurrentHashMap<>();

  /**
   * namespace/name of HostedClusters whose admin kubeconfig changed since the last round (from the
   * watcher).
   */
  private final Set<String> rotated = ConcurrentHashMap.newKeySet();

  /** cluster -> the last failure logged for it (each logged once until it changes). */
  private final Map<String, String> failed = new ConcurrentHashMap<>();

  private final AtomicLong fullRounds = new AtomicLong();
  private long lastFull = Long.MIN_VALUE;
  private boolean removalForbidden;

  public HostedAgents(KubernetesClient client, Pool pool, PoolSettings settings, Duration resync) {
    this.client = client;
    this.store = new HostedAgentStore(pool);
    this.settings = settings;
    this.resyncNanos = resync.toNanos();
  }

  /**
   * Full rounds completed (every live cluster's agent checked): tests await them rather than
   * waiting for time to pass.
   */
  public long completedFullRounds() {
    return fullRounds.get();
  }

  public void start() {
    worker.scheduleWithFixedDelay(this::round, 0, settings.assignSeconds(), TimeUnit.SECONDS);
  }

  /**
   * The watcher saw the HostedCluster's {@code <name>-admin-kubeconfig} arrive or change: its agent
   * is checked at the next round (within {@code assignSeconds}), not only at the next full one. The
   * service-network kubeconfig lives in the control plane namespace, whose Secrets nothing watches:
   * its rotation is found by the full check.
   */
  public void adminKubeconfigChanged(String namespace, String name) {
    if (settings.perCluster()) {
      rotated.add(namespace + "/" + name);
    }
  }

  private void round() {
    try {
      long now = System.nanoTime();
      boolean first = lastFull == Long.MIN_VALUE;
      boolean full = first || now - lastFull >= resyncNanos;
      if (full) {
        lastFull = now;
      }
      for (Hosted h :
          store
              .hosted()
              .toCompletionStage()
              .toCompletableFuture()
              .get(AWAIT_SECONDS, TimeUnit.SECONDS)) {
        try {
          handle(h, full, first);
        } catch (InterruptedException e) {
          throw e;
        } catch (Exception e) {
          if (!e.toString().equals(failed.put(h.cluster(), e.toString()))) {
            LOG.warn(
                "hosted agent of cluster {} not handled (retried every {} s): {}",
                h.cluster(),
                settings.assignSeconds(),
                e.toString());
          }
        }
      }
      if (full) {
        fullRounds.incrementAndGet();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // stopping: the round is abandoned, nothing failed
    } catch (Exception e) {
      LOG.warn("hosted agents round failed: {}", e.toString());
    }
  }

  /**
   * Live clusters are checked when their credential changed and on every full round; removal
   * happens when a cluster this leader deployed leaves, and for all of them once when it takes over
   * (what an earlier leader or mode left).
   */
  private void handle(Hosted h, boolean full, boolean first) throws Exception {
    boolean wanted = settings.perCluster() && !h.retired() && h.controlPlaneNamespace() != null;
    if (wanted) {
      String live =
          h.credentialHash() == null ? null : HexFormat.of().formatHex(h.credentialHash());
      boolean kubeconfigChanged = rotated.remove(h.namespace() + "/" + h.name());
      if (full || kubeconfigChanged || live == null || !live.equals(deployed.get(h.cluster()))) {
        ensure(h);
      }
    } else if (h.controlPlaneNamespace() != null
        && !removalForbidden
        && (first || deployed.containsKey(h.cluster()))) {
      remove(h);
    }
  }

  private void ensure(Hosted h) throws Exception {
    String namespace = h.controlPlaneNamespace();
    Optional<GuestKubeconfig> guest = guestKubeconfig(h);
    if (guest.isEmpty()) {
      if (waiting.put(h.cluster(), "kubeconfig") == null) {
        LOG.info(
            "cluster {}: no {} in {} nor {}-admin-kubeconfig in {}: its agent waits",
            h.cluster(),
            HostedAgentObjects.SERVICE_NETWORK,
            namespace,
            h.name(),
            h.namespace());
      }
      return;
    }
    waiting.remove(h.cluster());
    Secret current =
        client.secrets().inNamespace(namespace).withName(HostedAgentObjects.NAME).get();
    String credential =
        ours(current, h.cluster()) ? decode(current, HostedAgentObjects.CREDENTIAL_KEY) : null;
    boolean issued = false;
    if (credential == null || !h.live(credential)) {
      // one issued earlier whose apply failed is used again while live: no new credential (and
      // audit) per retry
      credential = unapplied.get(h.cluster());
      issued = true;
      if (credential == null || !h.live(credential)) {
        Optional<String> fresh =
            store
                .issue(h.cluster(), namespace)
                .toCompletionStage()
                .toCompletableFuture()
                .get(AWAIT_SECONDS, TimeUnit.SECONDS);
        if (fresh.isEmpty()) {
          return;
        }
        credential = fresh.get();
        unapplied.put(h.cluster(), credential);
      }
    }
    List<HasMetadata> objects =
        HostedAgentObjects.of(h.cluster(), namespace, credential, guest.get(), settings.hosted());
    Deployment running =
        client.apps().deployments().inNamespace(namespace).withName(HostedAgentObjects.NAME).get();
    Deployment desired =
        (Deployment)
            objects.stream().filter(Deployment.class::isInstance).findFirst().orElseThrow();
    if (issued || !HostedAgentObjects.upToDate(running, desired)) {
      for (HasMetadata object : objects) {
        // create, or replace what is there (by name: the grant's update verb names olmstead-agent)
        client.resource(object).createOr(NonDeletingOperation::update);
      }
      LOG.info(
          "cluster {}: hosted agent applied in {}{}",
          h.cluster(),
          namespace,
          issued ? " with a newly issued credential" : "");
    }
    unapplied.remove(h.cluster());
    failed.remove(h.cluster());
    deployed.put(h.cluster(), HexFormat.of().formatHex(Tokens.hash(credential)));
  }

  /**
   * The namespace's service-network kubeconfig when HyperShift wrote it, else a copy of the admin
   * kubeconfig; read afresh at every check, so that a rotated one changes the pod template hash and
   * rolls the agent.
   */
  private Optional<GuestKubeconfig> guestKubeconfig(Hosted h) {
    Secret serviceNetwork =
        client
            .secrets()
            .inNamespace(h.controlPlaneNamespace())
            .withName(HostedAgentObjects.SERVICE_NETWORK)
            .get();
    String inNamespace =
        serviceNetwork == null ? null : decode(serviceNetwork, HostedAgentObjects.KUBECONFIG_KEY);
    if (inNamespace != null) {
      return Optional.of(GuestKubeconfig.serviceNetwork(inNamespace));
    }
    Secret admin =
        client.secrets().inNamespace(h.namespace()).withName(h.name() + "-admin-kubeconfig").get();
    String kubeconfig = admin == null ? null : decode(admin, HostedAgentObjects.KUBECONFIG_KEY);
    return kubeconfig == null ? Optional.empty() : Optional.of(GuestKubeconfig.copy(kubeconfig));
  }

  /**
   * Deletes the four objects, by name, each only when it is labelled as this cluster's agent (never
   * another object of that name); by name so that RBAC can limit every verb but create to the name
   * {@value HostedAgentObjects#NAME}.
   */
  private void remove(Hosted h) {
    String namespace = h.controlPlaneNamespace();
    String name = HostedAgentObjects.NAME;
    List<Resource<? extends HasMetadata>> objects =
        List.of(
            client.apps().deployments().inNamespace(namespace).withName(name),
            client.network().v1().networkPolicies().inNamespace(namespace).withName(name),
            client.secrets().inNamespace(namespace).withName(name),
            client.serviceAccounts().inNamespace(namespace).withName(name));
    boolean removed = false;
    try {
      for (Resource<? extends HasMetadata> object : objects) {
        HasMetadata current = object.get();
        if (current != null && ours(current, h.cluster())) {
          object.delete();
          removed = true;
        }
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != 403 || settings.perCluster()) {
        throw e;
      }
      // pool mode without the per-cluster grant (deploy/hypershift-per-cluster): nothing of ours
      // can be there
      removalForbidden = true;
      LOG.info(
          "hosted agents: no RBAC to look for per-cluster agents to remove (pool mode without "
              + "deploy/hypershift-per-cluster's grant): none removed");
      return;
    }
    deployed.remove(h.cluster());
    if (removed) {
      LOG.info(
          "cluster {}: hosted agent removed from {} ({})",
          h.cluster(),
          namespace,
          h.retired() ? "cluster retired" : "agents are " + settings.agents());
    }
  }

  private static boolean ours(HasMetadata object, String cluster) {
    return object != null
        && object.getMetadata().getLabels() != null
        && cluster.equals(object.getMetadata().getLabels().get(HostedAgentObjects.CLUSTER_LABEL))
        && HostedAgentObjects.NAME.equals(
            object.getMetadata().getLabels().get("app.kubernetes.io/name"));
  }

  private static String decode(Secret secret, String key) {
    if (secret.getData() != null && secret.getData().get(key) != null) {
      return new String(
          Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
    return secret.getStringData() == null ? null : secret.getStringData().get(key);
  }

  @Override
  public void close() {
    worker.shutdownNow();
    client.close();
  }
}
