package io.olmstead.controlplane.dev;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.sim.DiscoveringCrudDispatcher;
import io.olmstead.agent.sim.KubeletStandIn;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;

/**
 * SIMULATION: the guest API of one simulated hosted cluster (what the hosted kube-apiserver
 * serves): a fabric8 mock API server in CRUD mode (answering kubectl's discovery) with the
 * simulated kubelet that makes CRDs Established and Deployments Available, as for {@code dev
 * --simulate}. The simulated HyperShift operator starts one per HostedCluster and stops it on
 * deletion.
 */
final class SimulatedGuest implements AutoCloseable {
  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final KubeletStandIn kubelet;

  private SimulatedGuest(
      KubernetesMockServer server, KubernetesClient client, KubeletStandIn kubelet) {
    this.server = server;
    this.client = client;
    this.kubelet = kubelet;
  }

  static SimulatedGuest start(String name, Duration rolloutDelay) {
    SimulatedManagementCluster.MOCK_LOG
        .getLevel(); // its quiet level holds for the guests' mock servers too
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init();
    KubernetesClient client = server.createClient();
    KubeletStandIn kubelet =
        new KubeletStandIn(
                name, new ResourceOperator(client, new ResourceKinds()), rolloutDelay, false)
            .start(Duration.ofMillis(Math.max(20, Math.min(200, rolloutDelay.toMillis() / 4))));
    return new SimulatedGuest(server, client, kubelet);
  }

  URI url() {
    return URI.create(client.getMasterUrl().toString());
  }

  /**
   * The kubeconfig HyperShift would publish for this guest (here: plain HTTP to the mock, no
   * credential).
   */
  String kubeconfig(String name) {
    return SimulatedManagementCluster.kubeconfig(name, client.getMasterUrl().toString());
  }

  @Override
  public void close() {
    kubelet.close();
    client.close();
    server.destroy();
  }
}
