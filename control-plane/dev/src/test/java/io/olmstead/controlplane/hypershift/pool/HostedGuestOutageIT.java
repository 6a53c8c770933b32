package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.olmstead.agent.health.HealthSettings;
import io.olmstead.agent.pool.PoolConfig;
import io.olmstead.agent.pool.PoolReplica;
import io.olmstead.agent.sim.DiscoveringCrudDispatcher;
import io.olmstead.agent.sim.KubeletStandIn;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.LoggerFactory;

/**
 * A pool replica's probes; a newly enrolled hosted cluster handed over at once (not at the next
 * assignment round); and a guest API that goes away (a paused HostedCluster's, or one just down)
 * while the replica serves it and another: the other guest and new ones keep being served, the lost
 * one is reported once as {@code GuestUnreachable} and backs off, and it is served again when its
 * API returns.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostedGuestOutageIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String NS = "demo-operator";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Map<String, KubernetesMockServer> servers = new HashMap<>();
  private static final Map<String, KubernetesClient> guests = new HashMap<>();
  private static final Map<String, KubeletStandIn> kubelets = new HashMap<>();
  private static final List<PoolReplica> replicas = new ArrayList<>();
  private static KubernetesMockServer managementServer;
  private static KubernetesClient management;
  private static TestControlPlane cp;
  private static ApiClient api;
  private static String poolToken;
  private static PoolReplica pool;
  private static int healthPort;

  @BeforeAll
  static void start() throws Exception {
    managementServer = PoolFixtures.crudServer();
    management = managementServer.createClient();
    PoolFixtures.prepareManagement(management);
    for (String guest : List.of("a", "b", "c")) {
      startGuest(guest, PoolFixtures.crudServer());
    }
    // rounds 5 minutes apart: only the enrollment's notification can hand a new cluster over within
    // the test
    cp = DemoPoolControlPlane.start(HostedGuestOutageIT.class, management, "300");
    api = new ApiClient(cp);
    poolToken = PoolFixtures.poolToken(cp);
  }

  @AfterAll
  static void stop() {
    replicas.forEach(PoolReplica::close);
    if (cp != null) {
      cp.close();
    }
    kubelets.values().forEach(KubeletStandIn::close);
    guests.values().forEach(KubernetesClient::close);
    servers.values().forEach(KubernetesMockServer::destroy);
    if (management != null) {
      management.close();
    }
    if (managementServer != null) {
      managementServer.destroy();
    }
  }

  @Test
  @Order(1)
  void aPoolReplicaIsLiveAtOnceAndReadyOnlyWhileConnectedWithAValidPoolToken() throws Exception {
    PoolReplica rejected = replica("pool-9", "olm_pool_" + "x".repeat(40));
    int rejectedPort = freePort();
    rejected.serveProbes(new HealthSettings(rejectedPort));
    assertThat(get(rejectedPort, "/healthz").statusCode()).isEqualTo(200);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              HttpResponse<String> notReady = get(rejectedPort, "/readyz");
              assertThat(notReady.statusCode()).isEqualTo(503);
              assertThat(notReady.body())
                  .contains("control-plane: pool replica pool-9 not connected")
                  .doesNotContain("olm_pool_");
            });
    rejected.close();
    replicas.remove(rejected);

    pool = replica("pool-0", poolToken);
    healthPort = freePort();
    pool.serveProbes(new HealthSettings(healthPort));
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(get(healthPort, "/readyz").statusCode()).isEqualTo(200));
  }

  @Test
  @Order(2)
  void aGuestWhoseApiStopsIsReportedOnceBacksOffLeavesTheOthersServedAndResumesWhenItsApiReturns()
      throws Exception {
    PoolFixtures.hostedCluster(management, "alpha", url("a"), url("a"));
    PoolFixtures.hostedCluster(management, "beta", url("b"), url("b"));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(status("clusters-alpha")).isEqualTo("connected");
              assertThat(status("clusters-beta")).isEqualTo("connected");
            });
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(deployments("a")).as(subscriptionStatus()).isNotEmpty();
              assertThat(deployments("b")).as(subscriptionStatus()).isNotEmpty();
              // settled: no pass re-queued for the install any more, so only the rebuilt agent
              // meets the outage below
              assertThat(item("clusters-alpha"))
                  .hasValueSatisfying(i -> assertThat(i.getString("phase")).isEqualTo("Succeeded"));
              assertThat(item("clusters-beta"))
                  .hasValueSatisfying(i -> assertThat(i.getString("phase")).isEqualTo("Succeeded"));
            });
    ListAppender<ILoggingEvent> logs = capture("io.olmstead.agent.reconcile.GuestReachability");
    // its retries are logged at debug: the test waits for one instead of for time to pass
    ((Logger) LoggerFactory.getLogger("io.olmstead.agent.reconcile.GuestReachability"))
        .setLevel(Level.DEBUG);

    String aUrl = url("a");
    stopGuest("a");
    // the stopped guest's kubeconfig rotates: its client is rebuilt against an API that does not
    // answer
    PoolFixtures.secret(
        management,
        "clusters-alpha",
        "service-network-admin-kubeconfig",
        aUrl.replaceAll("/$", ""));
    // a new hosted cluster is still handed over, connected and installed at once
    PoolFixtures.hostedCluster(management, "gamma", url("c"), url("c"));
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              assertThat(status("clusters-gamma")).isEqualTo("connected");
              assertThat(deployments("c")).as(subscriptionStatus()).isNotEmpty();
            });
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(item("clusters-alpha"))
                    .hasValueSatisfying(
                        i -> assertThat(i.getString("reason")).isEqualTo("GuestUnreachable")));
    // the rebuilt agent (rotated kubeconfig) opens its own channel: connected again although its
    // guest is down
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(status("clusters-alpha"))
                    .as("its channel to the control plane is up")
                    .isEqualTo("connected"));
    // its rebuilt agent connected while the guest gave no answer: no facts read from the guest
    await()
        .atMost(WAIT)
        .untilAsserted(() -> assertThat(facts("clusters-alpha").getValue("nodes")).isNull());
    assertThat(item("clusters-beta"))
        .hasValueSatisfying(i -> assertThat(i.getString("phase")).isEqualTo("Succeeded"));
    assertThat(get(healthPort, "/readyz").statusCode())
        .as("a guest's outage is not the replica's")
        .isEqualTo(200);
    // the rebuilt agent retries (2 s doubling) and finds the guest still down
    long retried = retries(logs);
    await().atMost(WAIT).until(() -> retries(logs) > retried);
    assertThat(
            logs.list.stream()
                .filter(
                    e ->
                        e.getFormattedMessage().contains("clusters-alpha")
                            && e.getFormattedMessage().contains("cannot be reached"))
                .count())
        .as("logged once per outage, though its client was rebuilt meanwhile")
        .isEqualTo(1);

    restartGuest("a", URI.create(aUrl).getPort());
    await()
        .atMost(Duration.ofSeconds(90))
        .untilAsserted(
            () -> {
              assertThat(deployments("a"))
                  .as("reinstalled on the restarted (empty) guest")
                  .isNotEmpty();
              assertThat(item("clusters-alpha"))
                  .hasValueSatisfying(
                      i -> assertThat(i.getString("reason")).isNotEqualTo("GuestUnreachable"));
            });
    assertThat(
            logs.list.stream()
                .filter(
                    e ->
                        e.getFormattedMessage().contains("clusters-alpha")
                            && e.getFormattedMessage().contains("answers again"))
                .count())
        .isEqualTo(1);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(facts("clusters-alpha").getValue("nodes"))
                    .as("facts sent once the guest answers, with no restart")
                    .isNotNull());
    assertThat(facts("clusters-alpha").getJsonObject("hypershift"))
        .as("the watcher's facts stay")
        .isNotNull();
  }

  private static JsonObject facts(String cluster) {
    JsonObject facts = api.get("/api/v1/clusters/" + cluster, ADMIN).json().getJsonObject("facts");
    return facts == null ? new JsonObject() : facts;
  }

  private static PoolReplica replica(String name, String token) throws Exception {
    PoolReplica replica =
        PoolReplica.start(
            PoolConfig.fromMap(
                Map.of(
                    PoolConfig.CONTROL_PLANE_URL,
                    cp.baseUrl(),
                    PoolConfig.POOL_TOKEN,
                    token,
                    PoolConfig.REPLICA,
                    name,
                    PoolConfig.KUBECONFIG_CHECK_SECONDS,
                    "1",
                    PoolConfig.RESYNC_SECONDS,
                    "30")),
            management);
    replicas.add(replica);
    return replica;
  }

  private static void startGuest(String guest, KubernetesMockServer server) {
    servers.put(guest, server);
    KubernetesClient client = server.createClient();
    guests.put(guest, client);
    kubelets.put(guest, PoolFixtures.kubelet(guest, client));
  }

  private static void stopGuest(String guest) {
    kubelets.remove(guest).close();
    guests.remove(guest).close();
    servers.remove(guest).destroy();
  }

  private static void restartGuest(String guest, int port) throws Exception {
    java.util.logging.Logger.getLogger("io.fabric8.mockwebserver")
        .setLevel(java.util.logging.Level.WARNING);
    KubernetesMockServer server =
        new KubernetesMockServer(
            new io.fabric8.mockwebserver.Context(),
            new io.fabric8.mockwebserver.MockWebServer(),
            new HashMap<>(),
            new DiscoveringCrudDispatcher(),
            false);
    server.init(InetAddress.getByName("localhost"), port);
    startGuest(guest, server);
  }

  private static ListAppender<ILoggingEvent> capture(String logger) {
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    ((Logger) LoggerFactory.getLogger(logger)).addAppender(appender);
    return appender;
  }

  /** How many times a retry found a guest still unreachable (logged at debug). */
  private static long retries(ListAppender<ILoggingEvent> logs) {
    return List.copyOf(logs.list).stream()
        .filter(e -> e.getFormattedMessage().contains("still unreachable"))
        .count();
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
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

  private static Optional<JsonObject> item(String cluster) {
    Response r = api.get("/api/v1/subscriptions/demo-operator/status", ADMIN);
    return r.json().getJsonArray("items").stream()
        .map(JsonObject.class::cast)
        .filter(i -> cluster.equals(i.getString("cluster")))
        .findFirst();
  }

  private static String status(String cluster) {
    return PoolFixtures.status(api, cluster);
  }
}
