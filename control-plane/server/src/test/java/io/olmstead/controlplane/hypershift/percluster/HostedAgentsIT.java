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
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.pool.PoolFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
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
 * Per-cluster hosted agents against a fabric8 mock management API in CRUD mode with the real
 * HostedCluster CRD, and real PostgreSQL: an enrolled HostedCluster gets its agent's objects in its
 * hosted control plane namespace, a revoked credential is replaced there, a rotated guest
 * kubeconfig rolls the agent's pod, and a deleted HostedCluster's agent is removed.
 */
class HostedAgentsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static KubernetesMockServer server;
  private static KubernetesClient kube;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() throws Exception {
    server = PoolFixtures.crudServer();
    kube = server.createClient();
    Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(kubeconfig, PoolFixtures.kubeconfig(kube.getMasterUrl().toString()));
    // the CRD is there before the watcher starts: its first check finds it instead of the next
    // (CRD_POLL_SECONDS later)
    PoolFixtures.prepareManagement(kube);
    DatabaseSettings db = TestDatabase.create(HostedAgentsIT.class);
    cp =
        TestControlPlane.start(
            db,
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                kubeconfig.toString(),
                HypershiftSettings.RESYNC_SECONDS,
                "1",
                PoolSettings.ASSIGN_SECONDS,
                "1",
                PoolSettings.AGENTS,
                "per-cluster",
                HostedAgentSettings.IMAGE,
                "registry.example.com/olmstead/agent:9.9.9"));
    api = new ApiClient(cp);
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
  void anEnrolledHostedClusterGetsItsAgentARevokedCredentialIsReplacedAndDeletionRemovesIt() {
    PoolFixtures.hostedCluster(
        kube, "alpha", PoolFixtures.IN_NAMESPACE_SERVER, "https://alpha.example.com:6443");
    await().atMost(WAIT).until(() -> deployment("clusters-alpha") != null);

    Deployment deployment = deployment("clusters-alpha");
    var agent = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(agent.getImage()).isEqualTo("registry.example.com/olmstead/agent:9.9.9");
    assertThat(agent.getArgs()).containsExactly("run");
    assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(
            v ->
                assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName())
                    .isEqualTo(HostedAgentObjects.SERVICE_NETWORK));
    assertThat(
            kube.network()
                .v1()
                .networkPolicies()
                .inNamespace("clusters-alpha")
                .withName("olmstead-agent")
                .get())
        .isNotNull();
    assertThat(
            kube.serviceAccounts().inNamespace("clusters-alpha").withName("olmstead-agent").get())
        .isNotNull();
    String first = credential("clusters-alpha");
    assertThat(first).startsWith("olm_cluster_");
    assertThat(audit("hypershift.agent-credential", "clusters/clusters-alpha")).hasSize(1);
    String firstHash = podHash("clusters-alpha");

    // rotation: the admin revokes the credential; the control plane issues another and rolls the
    // agent's pod
    assertThat(
            api.json(
                    "POST",
                    "/api/v1/clusters/clusters-alpha/credential/revoke",
                    ADMIN,
                    new JsonObject())
                .status())
        .isBetween(200, 204);
    await().atMost(WAIT).until(() -> !first.equals(credential("clusters-alpha")));
    await().atMost(WAIT).until(() -> !firstHash.equals(podHash("clusters-alpha")));
    assertThat(audit("hypershift.agent-credential", "clusters/clusters-alpha")).hasSize(2);
    // steady state: nothing is issued again while the Secret holds the live credential
    String second = credential("clusters-alpha");
    fullRoundsPass(2);
    assertThat(credential("clusters-alpha")).isEqualTo(second);

    // retirement: the HostedCluster is deleted, the cluster retired, and its agent's objects
    // removed
    kube.genericKubernetesResources(PoolFixtures.HOSTED_CLUSTERS)
        .inNamespace("clusters")
        .withName("alpha")
        .delete();
    await()
        .atMost(WAIT)
        .until(
            () ->
                deployment("clusters-alpha") == null
                    && kube.secrets().inNamespace("clusters-alpha").withName("olmstead-agent").get()
                        == null
                    && kube.network()
                            .v1()
                            .networkPolicies()
                            .inNamespace("clusters-alpha")
                            .withName("olmstead-agent")
                            .get()
                        == null
                    && kube.serviceAccounts()
                            .inNamespace("clusters-alpha")
                            .withName("olmstead-agent")
                            .get()
                        == null);
    // HyperShift's own secret in that namespace is left alone
    assertThat(
            kube.secrets()
                .inNamespace("clusters-alpha")
                .withName(HostedAgentObjects.SERVICE_NETWORK)
                .get())
        .isNotNull();
  }

  @Test
  void withoutAServiceNetworkKubeconfigTheAdminKubeconfigIsCopiedForTheAgent() {
    PoolFixtures.hostedCluster(kube, "beta", null, "https://beta.example.com:6443");
    await().atMost(WAIT).until(() -> deployment("clusters-beta") != null);
    Secret secret = kube.secrets().inNamespace("clusters-beta").withName("olmstead-agent").get();
    assertThat(decode(secret, "kubeconfig"))
        .isEqualTo(PoolFixtures.kubeconfig("https://beta.example.com:6443"));
    assertThat(deployment("clusters-beta").getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(
            v ->
                assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName())
                    .isEqualTo("olmstead-agent"));
  }

  @Test
  void aKubeconfigRotatedByHypershiftRollsTheAgentsPodAndNothingElseDoes() {
    // the service-network kubeconfig, which the pod mounts from HyperShift's own secret
    PoolFixtures.hostedCluster(
        kube, "gamma", PoolFixtures.IN_NAMESPACE_SERVER, "https://gamma.example.com:6443");
    await().atMost(WAIT).until(() -> podHash("clusters-gamma") != null);
    String first = podHash("clusters-gamma");
    String credential = credential("clusters-gamma");
    // nothing rotated: full rounds (every 1 s) leave the pod template as it is
    fullRoundsPass(2);
    assertThat(podHash("clusters-gamma")).isEqualTo(first);

    PoolFixtures.secret(
        kube, "clusters-gamma", HostedAgentObjects.SERVICE_NETWORK, "https://kube-apiserver:443");
    await().atMost(WAIT).until(() -> !first.equals(podHash("clusters-gamma")));
    String second = podHash("clusters-gamma");
    // rolled for the kubeconfig alone: the same credential, no new one issued, the content never in
    // the template
    assertThat(credential("clusters-gamma")).isEqualTo(credential);
    assertThat(audit("hypershift.agent-credential", "clusters/clusters-gamma")).hasSize(1);
    assertThat(deployment("clusters-gamma").getSpec().getTemplate().toString())
        .doesNotContain("kube-apiserver:443");
    fullRoundsPass(2);
    assertThat(podHash("clusters-gamma")).isEqualTo(second);

    // the copied admin kubeconfig (no service-network secret): rotating it updates the copy and
    // rolls the pod
    PoolFixtures.hostedCluster(kube, "delta", null, "https://delta.example.com:6443");
    await().atMost(WAIT).until(() -> podHash("clusters-delta") != null);
    String copied = podHash("clusters-delta");
    PoolFixtures.secret(
        kube, "clusters", "delta-admin-kubeconfig", "https://delta-rotated.example.com:6443");
    await().atMost(WAIT).until(() -> !copied.equals(podHash("clusters-delta")));
    assertThat(
            decode(
                kube.secrets().inNamespace("clusters-delta").withName("olmstead-agent").get(),
                "kubeconfig"))
        .isEqualTo(PoolFixtures.kubeconfig("https://delta-rotated.example.com:6443"));
  }

  private static Deployment deployment(String namespace) {
    return kube.apps().deployments().inNamespace(namespace).withName("olmstead-agent").get();
  }

  private static String credential(String namespace) {
    Secret secret = kube.secrets().inNamespace(namespace).withName("olmstead-agent").get();
    return secret == null ? null : decode(secret, "credential");
  }

  private static String podHash(String namespace) {
    Deployment d = deployment(namespace);
    return d == null
        ? null
        : d.getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get(HostedAgentObjects.HASH_ANNOTATION);
  }

  private static String decode(Secret secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static java.util.List<JsonObject> audit(String action, String resource) {
    var response = api.get("/api/v1/audit?limit=200", ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.items().stream()
        .map(JsonObject.class::cast)
        .filter(
            e -> action.equals(e.getString("action")) && resource.equals(e.getString("resource")))
        .toList();
  }

  /**
   * Waits until the per-cluster agents completed {@code count} more full rounds (each checks every
   * live cluster's agent again).
   */
  private static void fullRoundsPass(int count) {
    long from = cp.controlPlane().hypershift().completedHostedAgentRounds();
    await()
        .atMost(WAIT)
        .until(() -> cp.controlPlane().hypershift().completedHostedAgentRounds() >= from + count);
  }
}
