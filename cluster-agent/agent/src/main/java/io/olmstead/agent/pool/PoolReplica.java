package io.olmstead.agent.pool;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.config.ConfigException;
import io.olmstead.agent.health.HealthServer;
import io.olmstead.agent.health.HealthSettings;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.ReconcileThreads;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One hosted agent pool replica ({@code olmstead-agent pool}): one Vert.x, one HTTP and WebSocket
 * client, one catalog and bundle cache and one set of guest-client parts shared by every hosted
 * cluster it serves, the pool channel that tells it which clusters those are, and the {@link
 * HostedPool} serving them.
 */
public final class PoolReplica implements AutoCloseable {
  private final Vertx vertx;
  private final HttpClient http;
  private final WebSocketClient ws;
  private final GuestClients guests;
  private final ReconcileThreads reconcile;
  private final HostedPool pool;
  private final PoolChannel channel;

  private PoolReplica(PoolConfig config, KubernetesClient management) {
    this.vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(false));
    this.http =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(16));
    this.ws =
        vertx.createWebSocketClient(
            new WebSocketClientOptions().setMaxConnections(4096).setConnectTimeout(10_000));
    this.guests = new GuestClients(Math.max(2, Runtime.getRuntime().availableProcessors()));
    // every served cluster's passes, resyncs and preflights run here: the thread count does not
    // grow with clusters
    this.reconcile = ReconcileThreads.create("pool", config.reconcileThreads());
    URI controlPlane = URI.create(config.controlPlaneUrl());
    HostedPool[] self = new HostedPool[1];
    // catalog and bundle content is the same for every cluster: one cache, fetched with any served
    // cluster's credential
    CredentialStorage anyServed =
        new AnyCredential(
            () ->
                self[0] == null
                    ? Optional.empty()
                    : self[0].served().stream()
                        .map(c -> self[0].credential(c))
                        .flatMap(Optional::stream)
                        .findFirst());
    HostedAgent.Shared shared =
        new HostedAgent.Shared(
            controlPlane,
            vertx,
            http,
            ws,
            new ControlPlaneCatalogs(controlPlane, anyServed),
            guests,
            new ReconcilerOptions(1, config.resync(), true),
            guests.events(),
            guests.starter(),
            reconcile,
            InventoryReporter.INTERVAL);
    this.pool =
        new HostedPool(shared, new GuestKubeconfigs(management, guests), config.kubeconfigCheck());
    self[0] = pool;
    this.channel =
        new PoolChannel(
            vertx, ws, controlPlane, config.poolToken(), config.replica(), pool, System::nanoTime);
  }

  /** Starts the replica: it connects and serves what the control plane assigns it until closed. */
  public static PoolReplica start(PoolConfig config, KubernetesClient management) {
    PoolReplica replica = new PoolReplica(config, management);
    replica.channel.start();
    return replica;
  }

  /**
   * Serves {@code /healthz} and {@code /readyz} on the replica's Vert.x: ready while the pool
   * channel is connected with the pool token. A served guest that is down or unreachable never
   * makes the replica unready (restarting or unrouting the pod would not bring that guest back, and
   * would drop every other cluster it serves).
   */
  public Optional<HealthServer> serveProbes(HealthSettings settings) throws ConfigException {
    return HealthServer.serve(vertx, settings, Map.of("control-plane", channel::problem));
  }

  /** Whether the pool channel is up (welcomed). */
  public boolean connected() {
    return channel.welcomed();
  }

  /** The hosted clusters this replica runs an agent for. */
  public Set<String> served() {
    return pool.served();
  }

  /** Whether the agent of {@code cluster} here has its channel session up. */
  public boolean connected(String cluster) {
    return pool.connected(cluster);
  }

  /** Test hook: the agent credential this replica holds for {@code cluster} (never log it). */
  public Optional<String> credentialFor(String cluster) {
    return pool.credential(cluster);
  }

  @Override
  public void close() {
    try {
      channel.stop().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the control plane notices the close or the silence
    }
    pool.close();
    reconcile.close();
    guests.close();
    ws.close();
    http.close();
    vertx.close();
  }

  /** A read-only credential source over the served clusters' credentials. */
  private record AnyCredential(Supplier<Optional<String>> source) implements CredentialStorage {
    @Override
    public Optional<String> load() {
      return source.get();
    }

    @Override
    public void save(String credential) {
      throw new UnsupportedOperationException("the shared catalog cache never stores a credential");
    }

    @Override
    public void clear() {
      // nothing of its own to clear
    }
  }
}
