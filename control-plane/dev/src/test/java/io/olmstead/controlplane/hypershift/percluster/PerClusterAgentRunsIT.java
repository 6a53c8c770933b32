package io.olmstead.controlplane.hypershift.percluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.k8s.ResourceKinds;
import io.olmstead.agent.k8s.ResourceOperator;
import io.olmstead.agent.sim.KubeletStandIn;
import io.olmstead.controlplane.config.HostedAgentSettings;
import io.olmstead.controlplane.config.HypershiftSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.dev.DemoCatalog;
import io.olmstead.controlplane.dev.SimulatedKubelet;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.hypershift.pool.PoolFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The Deployment the control plane writes in per-cluster mode yields a working agent: a control
 * plane (real PostgreSQL) whose watcher enrolls a HostedCluster of a mock management API (CRUD, the
 * real CRD), and the {@link SimulatedKubelet} running that Deployment's pod (its Secret volumes as
 * files, its environment, args {@code run}) against a guest mock API. The agent connects and
 * installs the demo subscription; a revoked credential rolls the Deployment and the new pod's agent
 * connects with the new one; deleting the HostedCluster stops it. A Deployment whose environment
 * the agent refuses is logged once, naming the setting, and not run.
 */
class PerClusterAgentRunsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String DEPLOYMENT = "clusters-alpha/olmstead-agent";
  private static KubernetesMockServer managementServer;
  private static KubernetesMockServer guestServer;
  private static KubernetesClient management;
  private static KubernetesClient guest;
  private static KubeletStandIn guestKubelet;
  private static SimulatedKubelet kubelet;
  private static TestControlPlane cp;
  private static ApiClient api;

  @BeforeAll
  static void start() throws Exception {
    managementServer = PoolFixtures.crudServer();
    management = managementServer.createClient();
    PoolFixtures.prepareManagement(management);
    guestServer = PoolFixtures.crudServer();
    guest = guestServer.createClient();
    guestKubelet =
        new KubeletStandIn(
                "guest-alpha",
                new ResourceOperator(guest, new ResourceKinds()),
                Duration.ofMillis(300),
                false)
            .start(Duration.ofMillis(200));
    Path kubeconfig = Files.createTempFile("management", ".kubeconfig");
    Files.writeString(kubeconfig, PoolFixtures.kubeconfig(management.getMasterUrl().toString()));
    // the agents' Deployments name the control plane's URL, so its port is chosen before it listens
    int port = TestControlPlane.freePort();
    cp =
        TestControlPlane.start(
            TestDatabase.create(PerClusterAgentRunsIT.class),
            Map.of(
                HypershiftSettings.MANAGEMENT_KUBECONFIG,
                kubeconfig.toString(),
                HypershiftSettings.RESYNC_SECONDS,
                "2",
                PoolSettings.ASSIGN_SECONDS,
                "1",
                PoolSettings.AGENTS,
                "per-cluster",
                HostedAgentSettings.IMAGE,
                "registry.example.com/olmstead/agent:9.9.9",
                HostedAgentSettings.CONTROL_PLANE_URL,
                "http://127.0.0.1:" + port),
            port);
    api = new ApiClient(cp);
    assertThat(
            DemoCatalog.ensureLoaded(cp.controlPlane().vertx(), cp.controlPlane().pool())
                .toCompletionStage()
                .toCompletableFuture()
                .get(1, TimeUnit.MINUTES))
        .isTrue();
    ApiClient.Response subscribed =
        api.json(
            "PUT",
            "/api/v1/subscriptions/demo-operator",
            ADMIN,
            new JsonObject()
                .put("catalog", DemoCatalog.NAME)
                .put("package", "olmstead-demo-operator")
                .put("channel", "stable")
                .put("namespace", "demo-operator")
                .put("placement", new JsonObject().put("selector", "olmstead.io/source=hypershift"))
                .put("version", new JsonObject().put("pin", "0.1.0"))
                .put("approval", "Automatic"));
    assertThat(subscribed.status()).as(subscribed.body()).isEqualTo(201);
    kubelet = new SimulatedKubelet(management, 10).start(Duration.ofMillis(200));
  }

  @AfterAll
  static void stop() {
    if (kubelet != null) {
      kubelet.close();
    }
    if (cp != null) {
      cp.close();
    }
    if (guestKubelet != null) {
      guestKubelet.close();
    }
    for (KubernetesClient client : new KubernetesClient[] {guest, management}) {
      if (client != null) {
        client.close();
      }
    }
    for (KubernetesMockServer server : new KubernetesMockServer[] {guestServer, managementServer}) {
      if (server != null) {
        server.destroy();
      }
    }
  }

  @Test
  void theDeploymentsPodConnectsInstallsRollsOnARevokedCredentialAndStopsWithItsHostedCluster()
      throws Exception {
    // the service-network kubeconfig (mounted from HyperShift's own Secret) names the guest mock
    // API
    PoolFixtures.hostedCluster(
        management, "alpha", guest.getMasterUrl().toString(), "http://127.0.0.1:1");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(kubelet.running()).containsExactly(DEPLOYMENT);
              assertThat(status()).isEqualTo("connected");
              assertThat(guest.apps().deployments().inNamespace("demo-operator").list().getItems())
                  .as(api.get("/api/v1/subscriptions/demo-operator/status", ADMIN).body())
                  .isNotEmpty();
            });
    String first = credential();
    assertThat(kubelet.runningHash(DEPLOYMENT)).contains(podHash());
    Path pod = kubelet.podDirectory(DEPLOYMENT).orElseThrow();
    Path credentialFile = pod.resolve("credential").resolve("credential");
    assertThat(Files.readString(credentialFile)).isEqualTo(first);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentialFile)))
        .isEqualTo("rw-------");
    assertThat(pod.resolve("guest-kubeconfig").resolve("kubeconfig")).exists();

    // revoked: the cluster is cut off, the control plane issues another credential and rolls the
    // Deployment, and
    // the new pod's agent connects with it (the only live credential)
    String firstHash = podHash();
    assertThat(
            api.json(
                    "POST",
                    "/api/v1/clusters/clusters-alpha/credential/revoke",
                    ADMIN,
                    new JsonObject())
                .status())
        .isBetween(200, 204);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(podHash()).isNotEqualTo(firstHash);
              assertThat(kubelet.runningHash(DEPLOYMENT)).contains(podHash());
              assertThat(status()).isEqualTo("connected");
            });
    String second = credential();
    assertThat(second).isNotEqualTo(first);
    assertThat(catalogStatus(first)).as("the revoked credential").isEqualTo(401);
    assertThat(catalogStatus(second)).as("the new credential is live").isEqualTo(404);
    assertThat(pod).as("the old pod's files").doesNotExist();
    assertThat(
            Files.readString(
                kubelet.podDirectory(DEPLOYMENT).orElseThrow().resolve("credential/credential")))
        .isEqualTo(second);

    // the HostedCluster deleted: the cluster is retired, its Deployment removed, and the agent
    // stopped
    Path secondPod = kubelet.podDirectory(DEPLOYMENT).orElseThrow();
    management
        .genericKubernetesResources(PoolFixtures.HOSTED_CLUSTERS)
        .inNamespace("clusters")
        .withName("alpha")
        .delete();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(status()).isEqualTo("retired");
              assertThat(kubelet.running()).isEmpty();
            });
    assertThat(secondPod).doesNotExist();
  }

  @Test
  void aDeploymentWhoseEnvironmentTheAgentRefusesIsLoggedOnceNamingTheSettingAndNeverRun() {
    Logger log = (Logger) LoggerFactory.getLogger(SimulatedKubelet.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    log.addAppender(lines);
    try {
      // what the control plane would write for a cluster name that is no DNS label (the agent
      // refuses it)
      for (HasMetadata object :
          HostedAgentObjects.of(
              "Bad_Name",
              "elsewhere",
              "olm_cluster_not-to-be-printed",
              HostedAgentObjects.GuestKubeconfig.copy(
                  PoolFixtures.kubeconfig("http://127.0.0.1:1")),
              new HostedAgentSettings(
                  java.util.Optional.of("example.com/agent:1"),
                  "http://127.0.0.1:1",
                  "olmstead-system"))) {
        management.resource(object).create();
      }
      await().atMost(WAIT).until(() -> refusals(lines) == 1);
      // two more kubelet rounds look at the refused Deployment again: nothing more is logged
      long rounds = kubelet.completedRounds();
      await().atMost(WAIT).until(() -> kubelet.completedRounds() >= rounds + 2);
      assertThat(refusals(lines)).isEqualTo(1);
      assertThat(kubelet.running()).doesNotContain("elsewhere/olmstead-agent");
      assertThat(lines.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .noneMatch(m -> m.contains("olm_cluster_not-to-be-printed") || m.contains("apiVersion"));
    } finally {
      log.detachAppender(lines);
      management.apps().deployments().inNamespace("elsewhere").withName("olmstead-agent").delete();
    }
  }

  private static long refusals(ListAppender<ILoggingEvent> lines) {
    return List.copyOf(lines.list).stream()
        .map(ILoggingEvent::getFormattedMessage)
        .filter(
            m ->
                m.contains(
                        "elsewhere/olmstead-agent not started (refused until its pod template changes)")
                    && m.contains("OLMSTEAD_CLUSTER_NAME"))
        .count();
  }

  private static String status() {
    ApiClient.Response r = api.get("/api/v1/clusters/clusters-alpha", ADMIN);
    return r.status() == 200 ? r.json().getString("status") : "HTTP " + r.status();
  }

  private static String credential() {
    Secret secret =
        management.secrets().inNamespace("clusters-alpha").withName("olmstead-agent").get();
    return new String(
        Base64.getDecoder().decode(secret.getData().get("credential")), StandardCharsets.UTF_8);
  }

  private static String podHash() {
    Deployment d =
        management
            .apps()
            .deployments()
            .inNamespace("clusters-alpha")
            .withName("olmstead-agent")
            .get();
    return d == null
        ? null
        : d.getSpec()
            .getTemplate()
            .getMetadata()
            .getAnnotations()
            .get(HostedAgentObjects.HASH_ANNOTATION);
  }

  private static int catalogStatus(String credential) {
    return api.get("/api/v1/agent/catalogs/sha256:" + "0".repeat(64), credential).status();
  }
}
