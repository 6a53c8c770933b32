package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.config.ConfigException;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.agent.pool.PoolReplica;
import io.olmstead.agent.sim.KubeletStandIn;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The hosted agent pool end to end: a control plane (real PostgreSQL) whose watcher enrolls
 * HostedClusters of a mock management API (CRUD, the real CRD), pool replicas in this JVM reading
 * kubeconfig Secrets from it and serving guest mock APIs (CRUD). The scenarios build on each other:
 * install (two clusters, one through the fallback Secret), then a rotated kubeconfig, then a pool
 * replica lost.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostedPoolIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String NS = "demo-operator";
  private static final List<KubernetesMockServer> servers = new ArrayList<>();
  private static final Map<String, KubernetesClient> guests = new HashMap<>();
  private static final List<PoolReplica> replicas = new ArrayList<>();
  private static final List<KubeletStandIn> kubelets = new ArrayList<>();
  private static KubernetesClient management;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String poolToken;

  @BeforeAll
  static void start() throws Exception {
    KubernetesMockServer managementServer = PoolFixtures.crudServer();
    servers.add(managementServer);
    management = managementServer.createClient();
    PoolFixtures.prepareManagement(management);
    for (String guest : List.of("a", "b", "c", "c2")) {
      KubernetesMockServer server = PoolFixtures.crudServer();
      servers.add(server);
      KubernetesClient client = server.createClient();
      guests.put(guest, client);
      kubelets.add(PoolFixtures.kubelet(guest, client));
    }
    cp = DemoPoolControlPlane.start(HostedPoolIT.class, management, "1");
    api = new ApiClient(cp);
    poolToken = PoolFixtures.poolToken(cp);
  }

  @AfterAll
  static void stop() {
    // the kubelets first: a watch closed while its mock server still sends an event makes fabric8's
    // mock server wait
    // on its own event loop for the send (WatchEventsListener.onClosed awaits its executor), so no
    // writer is left
    // running when the pool replicas and the control plane close their watches
    kubelets.forEach(KubeletStandIn::close);
    replicas.forEach(PoolReplica::close);
    if (cp != null) {
      cp.close();
    }
    guests.values().forEach(KubernetesClient::close);
    if (management != null) {
      management.close();
    }
    servers.forEach(KubernetesMockServer::destroy);
  }

  @Test
  @Order(1)
  void
      installsThroughOnePoolReplicaOntoEachHostedClusterUsingTheAdminKubeconfigWhereTheServiceNetworkIsUnreachable() {
    PoolFixtures.hostedCluster(management, "alpha", url("a"), "http://127.0.0.1:1");
    PoolFixtures.hostedCluster(management, "beta", PoolFixtures.IN_NAMESPACE_SERVER, url("b"));
    PoolReplica pool0 = replica("pool-0");

    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(pool0.served()).contains("clusters-alpha", "clusters-beta");
              assertThat(status("clusters-alpha")).isEqualTo("connected");
              assertThat(status("clusters-beta")).isEqualTo("connected");
              assertThat(deployments("a")).as(subscriptionStatus()).isNotEmpty();
              assertThat(deployments("b")).as(subscriptionStatus()).isNotEmpty();
            });
    assertThat(audit("pool.handover")).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  @Order(2)
  void aRotatedKubeconfigSecretRebuildsThatGuestsClientWithTheSameCredential() {
    PoolFixtures.hostedCluster(management, "gamma", url("c"), url("c"));
    await()
        .atMost(WAIT)
        .until(() -> !deployments("c").isEmpty() && "connected".equals(status("clusters-gamma")));
    String credentialBefore = credentialHash("clusters-gamma");

    // the rotated Secret names another server: only a rebuilt client installs there
    PoolFixtures.secret(
        management, "clusters-gamma", "service-network-admin-kubeconfig", url("c2"));
    await().atMost(WAIT).until(() -> !deployments("c2").isEmpty());
    await().atMost(WAIT).until(() -> "connected".equals(status("clusters-gamma")));
    assertThat(credentialHash("clusters-gamma"))
        .as("no re-enrollment, no new handover")
        .isEqualTo(credentialBefore);
  }

  @Test
  @Order(3)
  void theClustersOfALostReplicaGoToAnotherWithRotatedCredentials() {
    PoolReplica pool1 = replica("pool-1");
    List<String> hosted = List.of("clusters-alpha", "clusters-beta", "clusters-gamma");
    Map<String, String> owners = PoolAssignment.assign(hosted, List.of("pool-0", "pool-1"));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                hosted.forEach(
                    c -> assertThat(replica(owners.get(c), pool1).served()).as(c).contains(c)));
    // the replica to lose: one that serves something (with three clusters on two replicas, one
    // always does)
    String lost = owners.containsValue("pool-0") ? "pool-0" : "pool-1";
    PoolReplica victim = replica(lost, pool1);
    PoolReplica survivor = victim == pool1 ? replicas.get(0) : pool1;
    Map<String, String> victimCopies = new HashMap<>();
    owners.forEach(
        (c, owner) -> {
          if (owner.equals(lost)) {
            await().atMost(WAIT).until(() -> victim.credentialFor(c).isPresent());
            victimCopies.put(c, victim.credentialFor(c).get());
          }
        });
    assertThat(victimCopies).isNotEmpty();
    victimCopies
        .values()
        .forEach(c -> assertThat(catalogStatus(c)).as("a live credential").isEqualTo(404));

    victim.close();
    replicas.remove(victim);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(survivor.served()).containsAll(hosted);
              hosted.forEach(c -> assertThat(survivor.connected(c)).as(c).isTrue());
            });
    victimCopies.forEach(
        (cluster, old) -> {
          assertThat(survivor.credentialFor(cluster)).get().isNotEqualTo(old);
          assertThat(catalogStatus(old))
              .as("the lost replica's copy for " + cluster)
              .isEqualTo(401);
        });
  }

  private static PoolReplica replica(String name) {
    PoolReplica replica = PoolReplica.start(poolConfig(name), management);
    replicas.add(replica);
    return replica;
  }

  private static PoolReplica replica(String name, PoolReplica pool1) {
    return name.equals("pool-1") ? pool1 : replicas.get(0);
  }

  private static PoolConfig poolConfig(String name) {
    try {
      return PoolConfig.fromMap(
          Map.of(
              PoolConfig.CONTROL_PLANE_URL,
              cp.baseUrl(),
              PoolConfig.POOL_TOKEN,
              poolToken,
              PoolConfig.REPLICA,
              name,
              PoolConfig.KUBECONFIG_CHECK_SECONDS,
              "1",
              PoolConfig.RESYNC_SECONDS,
              "30"));
    } catch (ConfigException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String url(String guest) {
    return guests.get(guest).getMasterUrl().toString();
  }

  private static List<String> deployments(String guest) {
    return PoolFixtures.deployments(guests.get(guest));
  }

  private static String subscriptionStatus() {
    return api.get("/api/v1/subscriptions/demo-operator/status", ADMIN).body();
  }

  private static String status(String cluster) {
    return PoolFixtures.status(api, cluster);
  }

  private static List<JsonObject> audit(String action) {
    Response response = api.get("/api/v1/audit?limit=200", ADMIN);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.items().stream()
        .map(JsonObject.class::cast)
        .filter(e -> action.equals(e.getString("action")))
        .toList();
  }

  private static int catalogStatus(String credential) {
    return api.get("/api/v1/agent/catalogs/sha256:" + "0".repeat(64), credential).status();
  }

  private static String credentialHash(String cluster) {
    try {
      return cp.controlPlane()
          .pool()
          .preparedQuery(
              "SELECT encode(credential_hash, 'hex') FROM cluster_credentials"
                  + " WHERE cluster = $1 AND revoked_at IS NULL")
          .execute(Tuple.of(cluster))
          .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getString(0))
          .toCompletionStage()
          .toCompletableFuture()
          .get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
