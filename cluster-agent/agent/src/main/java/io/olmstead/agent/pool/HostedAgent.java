package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.inventory.InventoryCollector;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.k8s.ClusterFacts;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.reconcile.AgentReconciler;
import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.agent.reconcile.ChannelBridge;
import io.olmstead.agent.reconcile.GuestReachability;
import io.olmstead.agent.reconcile.ReconcileThreads;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.apispec.protocol.Facts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.WebSocketClient;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent of one hosted cluster inside a pool replica: its own credential (handed over by the
 * control plane, kept in memory only), its own channel session, its own guest client and reconcile
 * queue. It acts for exactly one cluster, as a {@code run} agent does: the control plane's gateway
 * cannot tell the difference.
 *
 * <p>Starting does no guest I/O on the caller's thread (the pool's one ordering thread must never
 * wait for a guest): the guest's facts, the channel and the reconcile loop start on the shared
 * starter threads, the channel first, so the cluster is connected without waiting for its
 * informers. A guest whose API gives no answer (paused, down) is retried with doubling delays up to
 * {@link #RETRY_MAX}; it never holds up another guest.
 */
final class HostedAgent {
  private static final Logger LOG = LoggerFactory.getLogger(HostedAgent.class);
  static final Duration RETRY_MIN = Duration.ofSeconds(1);
  static final Duration RETRY_MAX = Duration.ofMinutes(1);

  private final Shared shared;
  private final HostedTarget target;
  private final CredentialStorage credential;
  private final GuestKubeconfigs.Access access;
  private final KubernetesClient guest;
  private final ChannelBridge bridge = new ChannelBridge();
  private final AgentReconciler reconciler;
  private final InventoryReporter inventory;
  private volatile ChannelClient channel;
  // the facts the channel's hello carries; read again once the guest answers when they were read
  // while it did not
  private Facts facts;
  private ScheduledFuture<?> pending;
  private long retryMillis = RETRY_MIN.toMillis();
  private volatile boolean reconciling;
  private boolean stopped;

  /**
   * What every served cluster shares: the control plane, the Vert.x clients, the catalog cache, the
   * tuning, the threads; {@code inventoryInterval} is how often each guest's inventory is collected
   * ({@link InventoryReporter#INTERVAL} in a real pool).
   */
  record Shared(
      URI controlPlane,
      Vertx vertx,
      HttpClient http,
      WebSocketClient ws,
      CatalogProvider catalogs,
      GuestClients guests,
      ReconcilerOptions options,
      Executor events,
      ScheduledExecutorService starter,
      ReconcileThreads reconcile,
      Duration inventoryInterval) {}

  private HostedAgent(
      Shared shared,
      HostedTarget target,
      String credential,
      GuestKubeconfigs.Access access,
      GuestReachability reach) {
    this.shared = shared;
    this.target = target;
    this.access = access;
    this.guest =
        shared
            .guests()
            .forKubeconfig(access.kubeconfig()); // parses only; a bad kubeconfig throws here
    this.credential = CredentialStorage.inMemory();
    this.credential.save(credential);
    this.reconciler =
        new AgentReconciler(
            target.cluster(),
            guest,
            shared.catalogs(),
            bridge,
            shared.options(),
            shared.reconcile(),
            reach);
    // as a run agent reports its inventory (RunCommand), on the pool's shared inventory threads;
    // started with the
    // reconcile loop, when the channel it sends on exists
    this.inventory =
        new InventoryReporter(
            target.cluster(),
            new InventoryCollector(guest, reconciler::statuses),
            report -> channel.publishInventory(report),
            shared.inventoryInterval(),
            shared.guests().inventory());
  }

  /**
   * Builds the guest client from {@code access} and schedules the rest (facts, channel, reconcile
   * loop).
   */
  static HostedAgent start(
      Shared shared,
      HostedTarget target,
      String credential,
      GuestKubeconfigs.Access access,
      GuestReachability reach) {
    HostedAgent agent = new HostedAgent(shared, target, credential, access, reach);
    agent.schedule(0);
    return agent;
  }

  private synchronized void schedule(long delayMillis) {
    if (!stopped) {
      pending = shared.starter().schedule(this::step, delayMillis, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * One start attempt: the channel once (facts read now, unknown ones left out), then the reconcile
   * loop.
   */
  private void step() {
    try {
      if (channel == null) {
        facts = ClusterFacts.of(guest, "hosted");
        ChannelOptions options =
            ChannelOptions.of(shared.controlPlane(), target.cluster(), null).withFacts(facts);
        ChannelClient built =
            new ChannelClient(
                shared.vertx(),
                shared.http(),
                shared.ws(),
                options,
                credential,
                new OffLoopListener(bridge, shared.events()));
        synchronized (this) {
          if (stopped) {
            return;
          }
          bridge.bind(reconciler, built);
          channel = built;
        }
        built.start();
      }
      reconciler.start();
      inventory.start();
      retryMillis = RETRY_MIN.toMillis();
      reconciling = true;
      refreshFacts();
    } catch (ResourceException | RuntimeException e) {
      if (!isStopped()) {
        LOG.debug(
            "cluster {}: guest not started yet ({}); retrying in {} ms",
            target.cluster(),
            e.getMessage(),
            retryMillis);
        schedule(retryMillis);
        retryMillis = Math.min(RETRY_MAX.toMillis(), retryMillis * 2);
      }
    }
  }

  /**
   * The guest answered (its reconcile loop started): facts read while it gave no answer (no
   * Kubernetes version) are read again and, when they differ, sent (a guest down when its channel
   * first connected otherwise stays without facts until the replica restarts).
   */
  private void refreshFacts() {
    if (facts.kubernetesVersion() != null && facts.nodes() != null) {
      return;
    }
    Facts now = ClusterFacts.of(guest, "hosted");
    if (!now.equals(facts)) {
      facts = now;
      LOG.info("cluster {}: the guest answers; sending its facts", target.cluster());
      channel.refreshFacts(now);
    }
  }

  private synchronized boolean isStopped() {
    return stopped;
  }

  /**
   * A credential handed over again (rotated, or handed back to a replica that came back): the next
   * connection uses it and a channel waiting to dial again (its old credential revoked: 4007, or
   * refused) dials at once rather than after the rest of its backoff; a session still open on the
   * old one is closed by the gateway.
   */
  void credential(String rotated) {
    credential.save(rotated);
    ChannelClient c = channel;
    if (c != null) {
      c.credentialChanged();
    }
  }

  HostedTarget target() {
    return target;
  }

  GuestKubeconfigs.Access access() {
    return access;
  }

  Optional<String> credential() {
    return credential.load();
  }

  /** Its reconcile loop, for benchmarks that hand it desired state without a control plane. */
  AgentReconciler reconciler() {
    return reconciler;
  }

  /** Whether its reconcile loop has started (the guest answered its first listing). */
  boolean reconciling() {
    return reconciling;
  }

  boolean connected() {
    ChannelClient c = channel;
    return c != null && c.isConnected();
  }

  /** Stops the channel, the reconcile loop and the guest client; the credential goes with them. */
  void stop() {
    ChannelClient c;
    synchronized (this) {
      stopped = true;
      if (pending != null) {
        pending.cancel(false);
      }
      c = channel;
    }
    if (c != null) {
      try {
        c.stop().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the connection is gone either way; the control plane notices the close or the silence
      }
    }
    inventory.close();
    reconciler.close();
    guest.close();
    credential.clear();
  }
}
