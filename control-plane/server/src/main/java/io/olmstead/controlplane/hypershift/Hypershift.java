package io.olmstead.controlplane.hypershift;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.db.LeaderLock;
import io.olmstead.controlplane.hypershift.percluster.HostedAgents;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HyperShift component as the control plane wires it: off unless a management cluster is
 * configured; otherwise every replica competes for the HyperShift advisory lock and only the holder
 * runs the {@link HostedClusterWatcher}.
 */
public final class Hypershift {
  /** The advisory lock key (an arbitrary constant: "olmshypr"), apart from the rollout engine's. */
  static final long LOCK_KEY = 0x6f6c6d7368797072L;

  static final long LEADER_POLL_MILLIS = 2000;
  private static final Logger LOG = LoggerFactory.getLogger(Hypershift.class);

  private final Vertx vertx;
  private final HypershiftSettings settings;
  private final HostedStore store;
  private final HypershiftMetrics metrics;
  private final UpgradeGuard guard;
  private final LeaderLock lock;
  private final Pool pool;
  private volatile HostedClusterWatcher watcher;
  private HostedAgents hostedAgents;
  private long timer = -1;
  private volatile boolean leader;
  // fabric8's Vert.x HTTP client factory makes a Vertx of its own for each client; made on a Vert.x
  // thread (an
  // executeBlocking worker) Vert.x warns that a Vertx is being made inside another, so the clients
  // are built, and
  // closed, on this plain thread (one: a start and the stop after it run in order); its thread
  // starts with the first
  private final ExecutorService clients =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "hypershift-clients");
            t.setDaemon(true);
            return t;
          });

  public Hypershift(
      Vertx vertx,
      Pool pool,
      PgConnectOptions connectOptions,
      MeterRegistry registry,
      HypershiftSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
    this.pool = pool;
    this.lock =
        new LeaderLock(vertx, connectOptions, LOCK_KEY, "HyperShift watcher", this::leadership);
    this.store = new HostedStore(pool, lock::fence);
    this.metrics = new HypershiftMetrics(registry);
    this.guard = new UpgradeGuard(pool, metrics);
  }

  public Future<Void> start() {
    if (settings.enabled()) {
      LOG.info(
          "HyperShift watcher enabled (management cluster: {}); it runs on the replica holding its lock",
          settings.managementKubeconfig().get());
      lock.tryTake();
      timer = vertx.setPeriodic(LEADER_POLL_MILLIS, id -> lock.tryTake());
    }
    return Future.succeededFuture();
  }

  /**
   * Resyncs this replica completed as leader (each decides every HostedCluster again, then sweeps):
   * tests await them rather than waiting for time to pass.
   */
  public long completedResyncs() {
    return metrics.sweeps();
  }

  /**
   * Full rounds of the per-cluster agents this replica completed as leader (0 while it does not
   * lead): tests await them rather than waiting for time to pass.
   */
  public long completedHostedAgentRounds() {
    var agents = hostedAgents;
    return agents == null ? 0 : agents.completedFullRounds();
  }

  /**
   * Why this replica's watcher last left the HostedCluster {@code namespace/name} alone (a skip or
   * conflict reason such as {@code no-kubeconfig}); empty when it did not, has not decided it yet,
   * or this replica does not lead: tests await it rather than waiting for time to pass.
   */
  public Optional<String> skipReason(String namespace, String name) {
    HostedClusterWatcher w = watcher;
    return w == null ? Optional.empty() : Optional.ofNullable(w.skipReason(namespace + "/" + name));
  }

  /** Whether this replica runs the watcher now. */
  public boolean leader() {
    return leader;
  }

  private void leadership(boolean taken) {
    leader = taken;
    if (taken) {
      LOG.info("this replica now runs the HyperShift watcher");
      offContext(
              () -> {
                HostedClusterWatcher started =
                    new HostedClusterWatcher(client(settings), store, metrics, settings, guard);
                started.start();
                // per-cluster agents (or, in pool mode, the removal of any an earlier mode left):
                // same leader, own client
                HostedAgents agents;
                try {
                  agents =
                      new HostedAgents(
                          client(settings), pool, settings.agents(), settings.resync());
                } catch (IOException | RuntimeException e) {
                  started.close();
                  throw e;
                }
                started.onAdminKubeconfigChange(agents::adminKubeconfigChanged);
                agents.start();
                hostedAgents = agents;
                return started;
              })
          .onSuccess(w -> watcher = w)
          .onFailure(
              e -> {
                metrics.failed("client");
                LOG.warn("HyperShift watcher not started: {}", e.toString());
                lock.release();
                leader = false;
              });
    } else {
      LOG.warn("HyperShift leader lock lost: watcher stopped until it is taken again");
      stopWatcher();
    }
  }

  /** A client for the management cluster: the kubeconfig file, or the pod's own service account. */
  public static KubernetesClient client(HypershiftSettings settings) throws IOException {
    String source = settings.managementKubeconfig().orElseThrow();
    Config config;
    try {
      // the parse error never quotes the file: it holds the management cluster's credentials and is
      // logged
      config =
          HypershiftSettings.IN_CLUSTER.equals(source)
              ? Config.autoConfigure(null)
              : Config.fromKubeconfig(Files.readString(Path.of(source)));
    } catch (RuntimeException e) {
      throw new IOException(
          HypershiftSettings.MANAGEMENT_KUBECONFIG
              + ": the kubeconfig does not parse ("
              + e.getClass().getSimpleName()
              + ")");
    }
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private Future<Void> stopWatcher() {
    HostedClusterWatcher w = watcher;
    var agents = hostedAgents;
    watcher = null;
    hostedAgents = null;
    return w == null && agents == null
        ? Future.succeededFuture()
        : offContext(
            () -> {
              if (agents != null) {
                agents.close();
              }
              if (w != null) {
                w.close();
              }
              return null;
            });
  }

  /**
   * Runs {@code work} on the plain client thread; the future completes on the caller's Vert.x
   * context.
   */
  private <T> Future<T> offContext(Callable<T> work) {
    Context context = vertx.getOrCreateContext();
    Promise<T> promise = Promise.promise();
    try {
      clients.execute(
          () -> {
            try {
              T result = work.call();
              context.runOnContext(v -> promise.complete(result));
            } catch (Exception e) {
              context.runOnContext(v -> promise.fail(e));
            }
          });
    } catch (RejectedExecutionException e) {
      promise.fail(e); // closed
    }
    return promise.future();
  }

  public Future<Void> close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    leader = false;
    return stopWatcher()
        .eventually(lock::release)
        .eventually(
            () -> {
              clients.shutdown();
              return Future.succeededFuture();
            });
  }
}
