package io.olmstead.agent.sim;

import io.olmstead.agent.channel.ChannelClient;
import io.olmstead.agent.channel.ChannelOptions;
import io.olmstead.agent.channel.CredentialStorage;
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

/**
 * SIMULATION for {@code dev --simulate N}: N {@link SimulatedCluster}s, each with its own channel client enrolled
 * against the control plane (labels {@code env=dev}, cycling {@code region}, facts mode {@code simulated}); desired
 * state, approvals and catalogs come over the real protocol, statuses go back the same way.
 */
public final class ConnectedSimulation implements AutoCloseable {
  private final List<SimulatedCluster> clusters;
  private final List<ChannelClient> channels;

  private ConnectedSimulation(List<SimulatedCluster> clusters, List<ChannelClient> channels) {
    this.clusters = clusters;
    this.channels = channels;
  }

  /**
   * Starts {@code count} clusters and connects each to {@code controlPlane} with {@code enrollmentToken} (which must
   * allow {@code count} uses); clusters named in {@code failing} get Deployments that miss their progress deadline.
   */
  public static ConnectedSimulation start(Vertx vertx, URI controlPlane, String enrollmentToken, int count,
                                          List<String> failing, Duration rolloutDelay) throws ResourceException {
    List<SimulatedCluster> clusters = new ArrayList<>();
    List<ChannelClient> channels = new ArrayList<>();
    try {
      for (int i = 1; i <= count; i++) {
        String name = SimulatedCluster.nameFor(i);
        CredentialStorage credentials = CredentialStorage.inMemory();
        ChannelBridge bridge = new ChannelBridge();
        SimulatedCluster cluster = SimulatedCluster.start(i, failing.contains(name),
            new ControlPlaneCatalogs(controlPlane, credentials), bridge, rolloutDelay, ReconcilerOptions.defaults());
        clusters.add(cluster);
        ChannelOptions options = ChannelOptions.of(controlPlane, name, enrollmentToken)
            .withLabels(cluster.labels())
            .withFacts(new Facts("v1.31.0-simulated", null, 1, "simulated"));
        ChannelClient channel = new ChannelClient(vertx, vertx.createHttpClient(), vertx.createWebSocketClient(), options,
            credentials, bridge);
        bridge.bind(cluster.agent(), channel);
        channels.add(channel);
        channel.start();
      }
      return new ConnectedSimulation(clusters, channels);
    } catch (ResourceException | RuntimeException e) {
      new ConnectedSimulation(clusters, channels).close();
      throw e;
    }
  }

  public List<SimulatedCluster> clusters() {
    return List.copyOf(clusters);
  }

  @Override
  public void close() {
    channels.forEach(ChannelClient::stop);
    clusters.forEach(SimulatedCluster::close);
  }
}
