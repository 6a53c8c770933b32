package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rollouts end to end: real PostgreSQL, the whole control plane, hollow agents on the real channel
 * client.
 */
class RolloutIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static DatabaseSettings db;
  private static RolloutFixtures fx;
  private static Vertx vertx;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(RolloutIT.class);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
  }

  private static ControlPlane start(int port) throws Exception {
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1")
            .withPort(port)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    ControlPlane cp =
        ControlPlane.start(config)
            .toCompletionStage()
            .toCompletableFuture()
            .get(2, TimeUnit.MINUTES);
    if (fx == null) {
      fx = new RolloutFixtures(db);
      fx.catalog();
    }
    return cp;
  }

  private static HollowFleet fleet(
      int port, String prefix, int count, String labelsJson, double failureRate) {
    String token = fx.enrollmentToken(count, labelsJson);
    return HollowFleet.start(
        vertx,
        new HollowFleet.Settings(
            count,
            URI.create("http://127.0.0.1:" + port),
            token,
            prefix,
            Duration.ofMillis(300),
            failureRate,
            Map.of(),
            null,
            0));
  }

  static HttpResponse<String> call(int port, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1" + path))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN);
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return HTTP.send(
        b.method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private long installed(String subscription, String version) {
    return fx.count(
        "SELECT count(*) FROM subscription_status WHERE subscription = ? AND installed_version = ? "
            + "AND phase = 'Succeeded'",
        subscription,
        version);
  }

  private static String state(int port, String id) throws Exception {
    return new JsonObject(call(port, "GET", "/rollouts/" + id, null).body()).getString("state");
  }

  @Test
  void hundredClustersCanaryThenBatchesCompleteAcrossARestartWithoutApprovingTwice()
      throws Exception {
    ControlPlane first = start(0);
    int port = first.port();
    fx.subscription("etcd", "fleet=big", "0.9.2");
    HollowFleet agents = fleet(port, "big-", 100, "{\"fleet\":\"big\"}", 0.0);
    ControlPlane second = null;
    try {
      await().atMost(Duration.ofSeconds(60)).until(() -> installed("etcd", "0.9.2") == 100);
      HttpResponse<String> created =
          call(
              port,
              "POST",
              "/rollouts",
              "{\"subscription\":\"etcd\","
                  + "\"targetVersion\":\"0.9.4\",\"strategy\":{\"canary\":{\"count\":5},\"batchSize\":40,\"soakSeconds\":1,"
                  + "\"progressDeadlineSeconds\":30}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      JsonObject rollout = new JsonObject(created.body());
      String id = rollout.getString("id");
      assertThat(rollout.getJsonArray("waves")).hasSize(4);
      assertThat(rollout.getJsonArray("fromVersions")).containsExactly("0.9.2");

      HttpResponse<String> again =
          call(
              port,
              "POST",
              "/rollouts",
              "{\"subscription\":\"etcd\"," + "\"targetVersion\":\"0.9.4\"}");
      assertThat(again.statusCode()).as(again.body()).isEqualTo(409);

      // the canary moves alone
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                String body = call(port, "GET", "/rollouts/" + id, null).body();
                assertThat(new JsonObject(body).getJsonObject("counts").getInteger("pending"))
                    .as(body)
                    .isEqualTo(95);
              });
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("etcd", "0.9.4") >= 5);
      assertThat(installed("etcd", "0.9.4")).isLessThanOrEqualTo(5);
      // restart mid-rollout, once the first batch is approved
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM rollout_clusters WHERE "
                              + "rollout_id = ? AND approved_version = '0.9.4'",
                          id)
                      > 5);
      first.close();
      second = start(port);
      int port2 = second.port();
      await().atMost(Duration.ofSeconds(60)).until(() -> "Succeeded".equals(state(port2, id)));
      assertThat(installed("etcd", "0.9.4")).isEqualTo(100);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterApproved'",
                  id))
          .isEqualTo(100);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'WaveSucceeded'",
                  id))
          .isEqualTo(4);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM audit_log WHERE action = 'rollout.step' AND resource = ?",
                  "rollouts/" + id))
          .isPositive();
      JsonObject done = new JsonObject(call(port2, "GET", "/rollouts/" + id, null).body());
      assertThat(done.getJsonObject("counts").getInteger("succeeded")).isEqualTo(100);
      assertThat(
              new JsonObject(
                      call(port2, "GET", "/rollouts?subscription=etcd&state=Succeeded", null)
                          .body())
                  .getJsonArray("items"))
          .hasSize(1);
      String metrics =
          HTTP.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port2 + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics)
          .contains("olmstead_rollout_transitions_total{kind=\"WaveSucceeded\"}")
          .contains("olmstead_rollout_engine_leader 1.0")
          .contains("olmstead_fleet_clusters{status=\"connected\"}");
    } finally {
      agents.close();
      if (second != null) {
        second.close();
      } else {
        first.close();
      }
    }
  }
}
