package io.olmstead.controlplane.dev;

import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.sim.ConnectedSimulation;
import io.olmstead.agent.sim.SimulatedCluster;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.db.Tx;
import io.olmstead.controlplane.enrollment.EnrollmentTokenStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIMULATION for {@code dev --simulate N}: N real agents in this process (see {@link
 * ConnectedSimulation}), each against its own in-memory Kubernetes API, enrolled through the real
 * enrollment endpoint with one enrollment token per cluster, bound to its name (so a restarted dev
 * control plane lets the same {@code sim-NN} re-enroll).
 */
public final class DevSimulation implements AutoCloseable {
  /**
   * The most simulated clusters one process runs (each has a mock API server, threads and
   * informers).
   */
  public static final int MAX_CLUSTERS = 200;

  /**
   * How long the simulated kubelet takes to make a Deployment Available (long enough to see the
   * phases).
   */
  public static final Duration DEFAULT_ROLLOUT_DELAY = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(DevSimulation.class);
  private static final long TOKEN_TTL_SECONDS = 600;

  /**
   * How often dev's simulated clusters collect their inventory (a real agent: every 60 s), so
   * custom resources made with kubectl show in {@code GET /clusters/{name}/inventory} within
   * seconds; a report still goes only on change.
   */
  public static final Duration INVENTORY_INTERVAL = Duration.ofSeconds(10);

  private final Vertx vertx;
  private final ConnectedSimulation simulation;
  private ClusterKubeconfigs kubeconfigs;

  private DevSimulation(Vertx vertx, ConnectedSimulation simulation) {
    this.vertx = vertx;
    this.simulation = simulation;
  }

  /** Checks {@code --simulate} and {@code --simulate-fail} before anything starts. */
  public static void check(int count, List<String> failing) {
    if (count < 0 || count > MAX_CLUSTERS) {
      throw new ConfigException(
          "--simulate", "'" + count + "' simulated clusters: use 0 to " + MAX_CLUSTERS);
    }
    for (String name : failing) {
      if (!name.matches("sim-\\d{2,3}")) {
        throw new ConfigException(
            "--simulate-fail", "'" + name + "' is not a simulated cluster name (sim-01, ...)");
      }
    }
  }

  /**
   * Creates the enrollment tokens in the store (audited, actor {@code system}) and starts {@code
   * count} simulated clusters against {@code controlPlane}; blocking (call it from a plain thread,
   * not an event loop).
   */
  public static DevSimulation start(
      Vertx controlPlaneVertx,
      Pool pool,
      URI controlPlane,
      int count,
      List<String> failing,
      Duration rolloutDelay)
      throws ResourceException {
    return start(
        controlPlaneVertx,
        pool,
        controlPlane,
        count,
        failing,
        rolloutDelay,
        InventoryReporter.INTERVAL);
  }

  /**
   * As above, each cluster collecting its inventory every {@code inventoryInterval} (dev: {@link
   * #INVENTORY_INTERVAL}).
   */
  public static DevSimulation start(
      Vertx controlPlaneVertx,
      Pool pool,
      URI controlPlane,
      int count,
      List<String> failing,
      Duration rolloutDelay,
      Duration inventoryInterval)
      throws ResourceException {
    check(count, failing);
    Map<String, String> tokens = await(enrollmentTokens(new Tx(pool), count));
    LOG.warn(
        "SIMULATION: starting {} simulated clusters (sim-01..{}) in this process, each with an in-memory "
            + "Kubernetes API; they are not real clusters{}",
        count,
        SimulatedCluster.nameFor(count),
        failing.isEmpty() ? "" : "; Deployments on " + failing + " fail on purpose");
    Vertx vertx = Vertx.vertx();
    try {
      ConnectedSimulation simulation =
          ConnectedSimulation.start(
              vertx, controlPlane, tokens::get, count, failing, rolloutDelay, inventoryInterval);
      return new DevSimulation(vertx, simulation);
    } catch (ResourceException | RuntimeException e) {
      vertx.close();
      throw e;
    }
  }

  private static Future<Map<String, String>> enrollmentTokens(Tx tx, int count) {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      names.add(SimulatedCluster.nameFor(i));
    }
    return enrollmentTokens(tx, names);
  }

  /**
   * One single-use enrollment token bound to each name (audited, actor {@code system}, label {@code
   * olmstead.io/simulated}); a token bound to a name may also enroll a cluster already known under
   * it.
   */
  static Future<Map<String, String>> enrollmentTokens(Tx tx, List<String> names) {
    EnrollmentTokenStore store = new EnrollmentTokenStore();
    Map<String, String> tokens = new LinkedHashMap<>();
    names.forEach(name -> tokens.put(name, Tokens.generate("olm_enroll_")));
    AuditEntry entry =
        new AuditEntry(
            "system",
            "enrollment-token.create",
            "enrollment-tokens",
            AuditEntry.SUCCESS,
            new JsonObject().put("simulated", true).put("clusters", names.size()),
            null);
    return tx.audited(
            entry,
            conn -> {
              Future<Void> chain = Future.succeededFuture();
              for (Map.Entry<String, String> token : tokens.entrySet()) {
                chain =
                    chain.compose(
                        v ->
                            store
                                .insert(
                                    conn,
                                    Tokens.hash(token.getValue()),
                                    new JsonObject().put("olmstead.io/simulated", "true"),
                                    token.getKey(),
                                    1,
                                    TOKEN_TTL_SECONDS,
                                    "system")
                                .mapEmpty());
              }
              return chain;
            },
            null)
        .map(v -> tokens);
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while preparing the simulation", e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot prepare the simulation: " + e.getMessage(), e);
    }
  }

  public ConnectedSimulation simulation() {
    return simulation;
  }

  /**
   * Writes {@code <dataDir>/clusters/<cluster>.kubeconfig} for every simulated cluster (see {@link
   * ClusterKubeconfigs}); {@link #close} deletes them.
   */
  public synchronized ClusterKubeconfigs writeKubeconfigs(Path dataDir) {
    Map<String, String> servers = new LinkedHashMap<>();
    simulation.clusters().forEach(c -> servers.put(c.name(), c.client().getMasterUrl().toString()));
    kubeconfigs = ClusterKubeconfigs.write(dataDir, servers);
    return kubeconfigs;
  }

  /**
   * Stops every simulated agent and its API server, then the agents' Vert.x; deletes the
   * kubeconfigs written.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (kubeconfigs != null) {
        kubeconfigs.close();
      }
    }
    simulation.close();
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("simulated agents did not stop cleanly: {}", e.toString());
    }
    LOG.info("SIMULATION stopped");
  }
}
