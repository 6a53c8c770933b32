package io.olmstead.controlplane.hypershift.percluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.hypershift.pool.PoolFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-cluster agents with a resync far longer than the test (600 s): a rotated {@code
 * <name>-admin-kubeconfig}, which the watcher's Secret informer sees, rolls the agent's pod on that
 * event, not at the next full check.
 */
class HostedAgentsKubeconfigEventIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static KubernetesMockServer server;
  private static KubernetesClient kube;
  private static TestControlPlane cp;

  @BeforeAll
  static void start() throws Exception {
    server = PoolFixtures.crudServer();
    kube = server.createClient();
    Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(kubeconfig, PoolFixtures.kubeconfig(kube.getMasterUrl().toString()));
    DatabaseSettings db = TestDatabase.create(HostedAgentsKubeconfigEventIT.class);
    cp =
        TestControlPlane.start(
            db,
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                kubeconfig.toString(),
                HypershiftSettings.RESYNC_SECONDS,
                "600",
                PoolSettings.ASSIGN_SECONDS,
                "1",
                PoolSettings.AGENTS,
                "per-cluster",
                HostedAgentSettings.IMAGE,
                "registry.example.com/olmstead/agent:9.9.9"));
    PoolFixtures.prepareManagement(kube);
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
    if (kube != null) {
      kube.close();
      server.destroy();
    }
  }

  @Test
  void aRotatedAdminKubeconfigRollsTheAgentOnTheSecretsEventLongBeforeTheNextResync() {
    PoolFixtures.hostedCluster(kube, "epsilon", null, "https://epsilon.example.com:6443");
    await().atMost(WAIT).until(() -> podHash() != null);
    String first = podHash();

    PoolFixtures.secret(
        kube, "clusters", "epsilon-admin-kubeconfig", "https://epsilon-rotated.example.com:6443");
    await().atMost(WAIT).until(() -> !first.equals(podHash()));
    Secret copy = kube.secrets().inNamespace("clusters-epsilon").withName("olmstead-agent").get();
    assertThat(
            new String(
                Base64.getDecoder().decode(copy.getData().get("kubeconfig")),
                StandardCharsets.UTF_8))
        .isEqualTo(PoolFixtures.kubeconfig("https://epsilon-rotated.example.com:6443"));
  }

  private static String podHash() {
    Deployment d =
        kube.apps().deployments().inNamespace("clusters-epsilon").withName("olmstead-agent").get();
    return d == null
        ? null
        : d.getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get(HostedAgentObjects.HASH_ANNOTATION);
  }
}
