package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.apispec.protocol.Desired;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.server.ControlPlane;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Restarts and replicas: agents reconnect with nothing lost, and a change made through one replica
 * reaches all.
 */
class ChannelReplicasIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static DatabaseSettings db;
  private static ChannelFixtures fixtures;
  private static Vertx vertx;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(ChannelReplicasIT.class);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
  }

  private static ControlPlane start(int port) throws Exception {
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(
                Map.of(
                    GatewaySettings.HEARTBEAT_SECONDS,
                    "2",
                    GatewaySettings.DISCONNECT_SECONDS,
                    "6",
                    GatewaySettings.RESYNC_SECONDS,
                    "30"),
                "127.0.0.1")
            .withPort(port)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    return ControlPlane.start(config)
        .toCompletionStage()
        .toCompletableFuture()
        .get(2, TimeUnit.MINUTES);
  }

  @Test
  void agentsReconnectAfterARestartAndStatusReportedWhileDownIsNotLost() throws Exception {
    ControlPlane first = start(0);
    int port = first.port();
    fixtures = new ChannelFixtures(db);
    fixtures.catalog(ChannelFixtures.DIGEST_1, "{}");
    fixtures.subscription("etcd", "fleet=hollow", "0.9.2");
    String token = fixtures.enrollmentToken(10, 600, "{\"fleet\":\"hollow\"}", null);
    HollowFleet fleet =
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                5,
                URI.create("http://127.0.0.1:" + port),
                token,
                "hollow-",
                Duration.ofSeconds(3),
                0.0,
                Map.of(),
                null,
                0));
    ControlPlane second = null;
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> succeededAt("0.9.2") == 5);
      fixtures.pin("etcd", "0.9.4");
      // Every agent has the new target (Installing) before the control plane goes away ...
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> count("target_version = '0.9.4' AND phase = 'Installing'") == 5);
      first.close();
      // ... and finishes while it is down; the full report after reconnecting carries the result.
      second = start(port);
      await().atMost(Duration.ofSeconds(60)).until(() -> succeededAt("0.9.4") == 5);
      await().atMost(Duration.ofSeconds(10)).until(() -> fleet.connected() == 5);
      assertThat(fixtures.query("SELECT status FROM clusters ORDER BY name"))
          .hasSize(5)
          .allSatisfy(row -> assertThat(row.get("status")).isEqualTo("connected"));
      // The REST read side sees the same.
      HttpResponse<String> status = get(port, "/api/v1/subscriptions/etcd/status");
      assertThat(status.statusCode()).isEqualTo(200);
      assertThat(new JsonObject(status.body()).getJsonObject("byVersion").getInteger("0.9.4"))
          .isEqualTo(5);
    } finally {
      fleet.close();
      if (second != null) {
        second.close();
      }
    }
  }

  @Test
  void aLabelChangeThroughOneReplicaReachesAnAgentConnectedToTheOther() throws Exception {
    ControlPlane a = start(0);
    ControlPlane b = start(0);
    try {
      ChannelFixtures fx = new ChannelFixtures(db);
      ensureCatalog(fx);
      fx.update(
          "INSERT INTO subscriptions (name, catalog, package, channel, namespace, placement_selector, "
              + "version_kind, version_value, approval, created_by) VALUES ('replicated', 'demo', 'etcd', 'alpha', 'etcd', "
              + "'tier=gold', 'follow', 'channel', 'Automatic', 'test') ON CONFLICT DO NOTHING");
      String token = fx.enrollmentToken(1, 600, "{}", null);
      String credential = Enroll.credential("http://127.0.0.1:" + a.port(), token, "on-a");
      try (RawAgent agent = RawAgent.connect(vertx, a.port(), credential)) {
        agent.handshake();
        assertThat(agent.next(Desired.class).subscriptions()).isEmpty();
        HttpResponse<String> patched =
            HTTP.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + b.port() + "/api/v1/clusters/on-a"))
                    .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                    .header("Content-Type", "application/merge-patch+json")
                    .method(
                        "PATCH",
                        HttpRequest.BodyPublishers.ofString("{\"labels\":{\"tier\":\"gold\"}}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        Desired desired = agent.next(Desired.class);
        assertThat(desired.subscriptions())
            .extracting(s -> s.name() + "@" + s.maxVersion())
            .containsExactly("replicated@0.9.4");

        // Deleting the cluster through B revokes its credential: A closes the connection within
        // seconds.
        HttpResponse<String> deleted =
            HTTP.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + b.port() + "/api/v1/clusters/on-a"))
                    .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
                    .DELETE()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isIn(200, 204);
        assertThat(agent.awaitClose()).isEqualTo(4007);
      }
    } finally {
      a.close();
      b.close();
    }
  }

  private static void ensureCatalog(ChannelFixtures fx) {
    if (fx.query("SELECT 1 FROM catalogs WHERE name = 'demo'").isEmpty()) {
      fx.catalog(ChannelFixtures.DIGEST_2, "{}");
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static long succeededAt(String version) {
    return count("installed_version = '" + version + "' AND phase = 'Succeeded' AND NOT gone");
  }

  private static long count(String where) {
    List<Map<String, Object>> rows =
        fixtures.query(
            "SELECT count(*) AS n FROM subscription_status WHERE "
                + "subscription = 'etcd' AND "
                + where);
    return (Long) rows.get(0).get("n");
  }
}
