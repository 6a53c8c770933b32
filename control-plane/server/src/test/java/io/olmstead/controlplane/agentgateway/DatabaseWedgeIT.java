package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TcpBalancer;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replica whose path to the database hangs (half-open: connections stay open, nothing passes)
 * does not stay wedged: its hung pooled connections are cut after the read timeout, and once the
 * database has not answered for the unreachable bound it closes its agents' connections with 1001
 * (they redial another replica), refuses new ones, and {@code /healthz} fails; when the path works
 * again it serves again. The database is reached through a TCP proxy the test freezes.
 */
class DatabaseWedgeIT {
  private static Vertx vertx;
  private static TcpBalancer proxy;
  private static TestControlPlane cp;
  private static ChannelFixtures fixtures;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() throws Exception {
    DatabaseSettings direct = TestDatabase.create(DatabaseWedgeIT.class);
    Migrations.migrate(direct);
    vertx = Vertx.vertx();
    proxy = TcpBalancer.start(vertx);
    proxy.addBackend(direct.port());
    DatabaseSettings viaProxy =
        new DatabaseSettings(
            "127.0.0.1", proxy.port(), direct.database(), direct.user(), direct.password());
    cp =
        TestControlPlane.start(
            viaProxy,
            Map.of(
                DatabaseHealthSettings.STATEMENT_TIMEOUT,
                "1",
                DatabaseHealthSettings.READ_TIMEOUT,
                "2",
                DatabaseHealthSettings.CONNECT_TIMEOUT,
                "1",
                DatabaseHealthSettings.UNREACHABLE,
                "3"));
    fixtures = new ChannelFixtures(direct);
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    vertx.close();
  }

  @Test
  void aReplicaWhoseDatabasePathHangsLetsItsAgentsGoFailsLivenessAndServesAgainWhenItWorks()
      throws Exception {
    String token = fixtures.enrollmentToken(2, 600, "{}", null);
    String credential = Enroll.credential(cp.baseUrl(), token, "wedged");
    try (RawAgent agent = RawAgent.connect(vertx, cp.port(), credential)) {
      agent.handshake();
      assertThat(healthz().statusCode()).isEqualTo(200);

      proxy.freeze();
      assertThat(agent.closeCode.get(30, TimeUnit.SECONDS))
          .as("let go, to redial another replica")
          .isEqualTo(CloseReason.SHUTTING_DOWN.code());
      HttpResponse<String> down = healthz();
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(new JsonObject(down.body()).getString("reason")).contains("database");
      assertThat(connectStatus(credential))
          .as("no new agent while the database is unreachable")
          .isEqualTo(503);
    }

    proxy.thaw();
    await().atMost(Duration.ofSeconds(30)).until(() -> healthz().statusCode() == 200);
    try (RawAgent again = RawAgent.connect(vertx, cp.port(), credential)) {
      assertThat(again.handshake()).isNotNull();
    }
  }

  private static HttpResponse<String> healthz() throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/healthz"))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int connectStatus(String credential) throws Exception {
    Throwable refused =
        vertx
            .createWebSocketClient()
            .connect(
                new WebSocketConnectOptions()
                    .setHost("127.0.0.1")
                    .setPort(cp.port())
                    .setURI("/api/v1/agent/connect")
                    .putHeader("Authorization", "Bearer " + credential))
            .map(ws -> (Throwable) null)
            .otherwise(e -> e)
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertThat(refused).isInstanceOf(UpgradeRejectedException.class);
    return ((UpgradeRejectedException) refused).getStatus();
  }
}
