package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.k8s.ClusterFacts;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.reconcile.AgentReconciler;
import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.agent.reconcile.ChannelBridge;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.WebSocketClient;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The agent of one hosted cluster inside a pool replica: its own credential (handed over by the control plane, kept
 * in memory only), its own channel session, its own guest client and reconcile queue. It acts for exactly one cluster,
 * as a {@code run} agent does: the control plane's gateway cannot tell the difference.
 */
final class HostedAgent {
  private final HostedTarget target;
  private final CredentialStorage credential;
  private final GuestKubeconfigs.Access access;
  private final KubernetesClient guest;
  private final AgentReconciler reconciler;
  private final ChannelClient channel;

  private HostedAgent(HostedTarget target, CredentialStorage credential, GuestKubeconfigs.Access access,
      KubernetesClient guest, AgentReconciler reconciler, ChannelClient channel) {
    this.target = target;
    this.credential = credential;
    this.access = access;
    this.guest = guest;
    this.reconciler = reconciler;
    this.channel = channel;
  }

  /** What every served cluster shares: the control plane, the Vert.x clients, the catalog cache, the tuning. */
  record Shared(URI controlPlane, Vertx vertx, HttpClient http, WebSocketClient ws, CatalogProvider catalogs,
      GuestClients guests, ReconcilerOptions options, java.util.concurrent.Executor events) {
  }

  /** Builds the guest client from {@code access}, starts the reconcile loop, then dials the control plane. */
  static HostedAgent start(Shared shared, HostedTarget target, String credential, GuestKubeconfigs.Access access)
      throws ResourceException {
    KubernetesClient guest = shared.guests().forKubeconfig(access.kubeconfig());
    ChannelBridge bridge = new ChannelBridge();
    AgentReconciler reconciler = new AgentReconciler(target.cluster(), guest, shared.catalogs(), bridge,
        shared.options());
    ChannelOptions options = ChannelOptions.of(shared.controlPlane(), target.cluster(), null)
        .withFacts(ClusterFacts.of(guest, "hosted"));
    CredentialStorage stored = CredentialStorage.inMemory();
    stored.save(credential);
    try {
      reconciler.start();
    } catch (ResourceException | RuntimeException e) {
      reconciler.close();
      guest.close();
      throw e;
    }
    ChannelClient channel = new ChannelClient(shared.vertx(), shared.http(), shared.ws(), options, stored,
        new OffLoopListener(bridge, shared.events()));
    bridge.bind(reconciler, channel);
    channel.start();
    return new HostedAgent(target, stored, access, guest, reconciler, channel);
  }

  /** A credential handed over again (rotated): the next connection uses it; the old one is closed by the gateway. */
  void credential(String rotated) {
    credential.save(rotated);
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

  boolean connected() {
    return channel.isConnected();
  }

  /** Stops the channel, the reconcile loop and the guest client; the credential goes with them. */
  void stop() {
    try {
      channel.stop().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the connection is gone either way; the control plane notices the close or the silence
    }
    reconciler.close();
    guest.close();
    credential.clear();
  }
}
