package io.olmstead.agent.sim;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
import io.olmstead.agent.inventory.InventoryCollector;
import io.olmstead.agent.inventory.InventoryReporter;
import io.olmstead.agent.k8s.ResourceException;
import io.olmstead.agent.reconcile.ChannelBridge;
import io.olmstead.agent.reconcile.ControlPlaneCatalogs;
import io.olmstead.agent.reconcile.ReconcilerOptions;
import io.olmstead.apispec.protocol.Facts;
import io.vertx.core.Vertx;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * SIMULATION for {@code dev --simulate N}: N {@link SimulatedCluster}s, each with its own channel
 * client enrolled against the control plane (labels {@code env=dev}, cycling {@code region}, facts
 * mode {@code simulated}); desired state, approvals and catalogs come over the real protocol,
 * statuses go back the same way.
 */
public final class ConnectedSimulation implements AutoCloseable {
  /**
   * The facts every simulated cluster reports: the version string and the mode both say simulation.
   */
  public static final Facts FACTS = new Facts("v1.31.0-simulated", null, 1, "simulated");

  private final Vertx vertx;
  private final List<SimulatedCluster> clusters;
  private final List<ChannelClient> channels;
  private final List<ChannelBridge> bridges = new ArrayList<>();
  private final List<ChannelOptions> options = new ArrayList<>();
  private final List<CredentialStorage> credentials = new ArrayList<>();
  private final List<InventoryReporter> inventories = new ArrayList<>();

  private ConnectedSimulation(
      Vertx vertx, List<SimulatedCluster> clusters, List<ChannelClient> channels) {
    this.vertx = vertx;
    this.clusters = clusters;
    this.channels = channels;
  }

  /**
   * Starts {@code count} clusters and connects each to {@code controlPlane} with {@code
   * enrollmentToken} (which must allow {@code count} uses); clusters named in {@code failing} get
   * Deployments that miss their progress deadline.
   */
  public static ConnectedSimulation start(
      Vertx vertx,
      URI controlPlane,
      String enrollmentToken,
      int count,
      List<String> failing,
      Duration rolloutDelay)
      throws ResourceException {
    return start(vertx, controlPlane, name -> enrollmentToken, count, failing, rolloutDelay);
  }

  /**
   * As {@link #start(Vertx, URI, String, int, List, Duration)} with one enrollment token per
   * cluster name (a token bound to the name lets a restarted dev control plane re-enroll clusters
   * it already knows).
   */
  public static ConnectedSimulation start(
      Vertx vertx,
      URI controlPlane,
      Function<String, String> tokenFor,
      int count,
      List<String> failing,
      Duration rolloutDelay)
      throws ResourceException {
    return start(
        vertx, controlPlane, tokenFor, count, failing, rolloutDelay, InventoryReporter.INTERVAL);
  }

  /**
   * As above with each cluster's inventory collected every {@code inventoryInterval} (dev mode
   * looks more often).
   */
  public static ConnectedSimulation start(
      Vertx vertx,
      URI controlPlane,
      Function<String, String> tokenFor,
      int count,
      List<String> failing,
      Duration rolloutDelay,
      Duration inventoryInterval)
      throws ResourceException {
    ConnectedSimulation sim = new ConnectedSimulation(vertx, new ArrayList<>(), new ArrayList<>());
    try {
      for (int i = 1; i <= count; i++) {
        String name = SimulatedCluster.nameFor(i);
        CredentialStorage stored = CredentialStorage.inMemory();
        ChannelBridge bridge = new ChannelBridge();
        SimulatedCluster cluster =
            SimulatedCluster.start(
                i,
                failing.contains(name),
                new ControlPlaneCatalogs(controlPlane, stored),
                bridge,
                rolloutDelay,
                ReconcilerOptions.defaults());
        sim.clusters.add(cluster);
        ChannelOptions channelOptions =
            ChannelOptions.of(controlPlane, name, tokenFor.apply(name))
                .withLabels(cluster.labels())
                .withFacts(FACTS);
        sim.bridges.add(bridge);
        sim.options.add(channelOptions);
        sim.credentials.add(stored);
        sim.channels.add(sim.connect(sim.clusters.size() - 1));
        int index = sim.clusters.size() - 1;
        sim.inventories.add(
            new InventoryReporter(
                    name,
                    new InventoryCollector(cluster.client(), () -> cluster.agent().statuses()),
                    report -> sim.channels.get(index).publishInventory(report),
                    inventoryInterval)
                .start());
      }
      return sim;
    } catch (ResourceException | RuntimeException e) {
      sim.close();
      throw e;
    }
  }

  private ChannelClient connect(int index) {
    ChannelClient channel =
        new ChannelClient(
            vertx,
            vertx.createHttpClient(),
            vertx.createWebSocketClient(),
            options.get(index),
            credentials.get(index),
            bridges.get(index));
    bridges.get(index).bind(clusters.get(index).agent(), channel);
    channel.start();
    return channel;
  }

  /**
   * Restarts the agent of cluster {@code name} as a process restart would: its channel closes, a
   * fresh reconcile loop starts against the same API server and reconnects with the stored
   * credential.
   */
  public synchronized void restartAgent(String name) throws ResourceException {
    for (int i = 0; i < clusters.size(); i++) {
      if (clusters.get(i).name().equals(name)) {
        try {
          channels
              .get(i)
              .stop()
              .toCompletionStage()
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          // the old connection is gone either way; the control plane notices the close or the
          // missed heartbeats
        }
        clusters.get(i).restartAgent();
        channels.set(i, connect(i));
        return;
      }
    }
    throw new IllegalArgumentException("no simulated cluster named " + name);
  }

  public List<SimulatedCluster> clusters() {
    return List.copyOf(clusters);
  }

  /**
   * Each cluster's inventory reporter (every 60 s unless started otherwise; {@code collectNow}
   * reports at once, as a test or a user may want).
   */
  public List<InventoryReporter> inventories() {
    return List.copyOf(inventories);
  }

  public List<ChannelClient> channels() {
    return List.copyOf(channels);
  }

  @Override
  public void close() {
    inventories.forEach(InventoryReporter::close);
    channels.forEach(ChannelClient::stop);
    clusters.forEach(SimulatedCluster::close);
  }
}
