package io.olmstead.controlplane.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.HypershiftFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code dev --simulate-hypershift} with {@code OLMSTEAD_HYPERSHIFT_AGENTS=per-cluster}: dev's
 * settings (a default agent image, dev's own URL for the agents) and the {@link SimulatedKubelet}
 * running the agent Deployments the control plane writes into the simulated management cluster, so
 * that the simulated hosted clusters get connected (no pool replica runs); a deleted
 * HostedCluster's agent stops, and closing dev stops the rest.
 */
class DevHypershiftPerClusterIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static DevHypershift sim;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() throws Exception {
    sim =
        DevHypershift.start(
            Files.createTempDirectory("dev-hypershift"),
            HypershiftFixtures.dir(),
            2,
            Duration.ofMillis(500),
            Duration.ofMillis(200));
    int port = TestControlPlane.freePort();
    String url = "http://127.0.0.1:" + port;
    // what DevCommand does: no agent image given, none of the agents' URL
    Map<String, String> env =
        DevHypershift.environment(
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                sim.kubeconfig().toString(),
                PoolSettings.AGENTS,
                PoolSettings.PER_CLUSTER,
                PoolSettings.ASSIGN_SECONDS,
                "1"),
            url,
            port);
    cp = TestControlPlane.start(TestDatabase.create(DevHypershiftPerClusterIT.class), env, port);
    sim.connectAgents(cp.controlPlane().pool(), URI.create(url), true);
    api = new ApiClient(cp);
  }

  @AfterAll
  static void stop() {
    if (sim != null) {
      sim.close();
    }
    if (cp != null) {
      cp.close();
    }
  }

  @Test
  void theSimulatedKubeletRunsTheAgentDeploymentsAndTheHostedClustersGetConnected() {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (String name : new String[] {"clusters-hc-01", "clusters-hc-02"}) {
                assertThat(status(name)).as(name).isEqualTo("connected");
              }
              assertThat(sim.kubelet().running())
                  .containsExactlyInAnyOrder(
                      "clusters-hc-01/olmstead-agent", "clusters-hc-02/olmstead-agent");
            });
    assertThat(sim.agents()).as("no pool replica in per-cluster mode").isNull();
    Deployment deployment =
        sim.management()
            .client()
            .apps()
            .deployments()
            .inNamespace("clusters-hc-01")
            .withName("olmstead-agent")
            .get();
    var agent = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(agent.getImage()).isEqualTo(DevHypershift.DEV_AGENT_IMAGE);
    assertThat(agent.getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo("OLMSTEAD_CONTROL_PLANE_URL");
              assertThat(e.getValue()).isEqualTo(cp.baseUrl());
            });

    sim.management()
        .client()
        .genericKubernetesResources(SimulatedManagementCluster.HOSTED_CLUSTERS)
        .inNamespace("clusters")
        .withName("hc-02")
        .delete();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(status("clusters-hc-02")).isEqualTo("retired");
              assertThat(sim.kubelet().running()).containsExactly("clusters-hc-01/olmstead-agent");
            });
    assertThat(status("clusters-hc-01")).isEqualTo("connected");
  }

  private static String status(String name) {
    ApiClient.Response response = api.get("/api/v1/clusters/" + name, ADMIN);
    return response.status() == 200
        ? response.json().getString("status")
        : "HTTP " + response.status();
  }
}
