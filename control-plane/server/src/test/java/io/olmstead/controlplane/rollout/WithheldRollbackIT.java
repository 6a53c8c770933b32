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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster withheld by an earlier rollout (an approval without a version, V57) that a later
 * rollout approves gets its withheld approval back when that rollout rolls back, instead of losing
 * it (with hollow agents and real PostgreSQL).
 */
class WithheldRollbackIT {
  private static final String WITHHELD =
      "held by rollout r-old: ProviderFailed: etcd-provider did not reach 1.0.0 on this cluster";
  private static DatabaseSettings db;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static ControlPlane cp;
  private static int port;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(WithheldRollbackIT.class);
    vertx = Vertx.vertx();
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1")
            .withPort(0)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    cp =
        ControlPlane.start(config)
            .toCompletionStage()
            .toCompletableFuture()
            .get(2, TimeUnit.MINUTES);
    port = cp.port();
    fx = new RolloutFixtures(db);
    fx.catalog();
  }

  @AfterAll
  static void tearDown() {
    cp.close();
    vertx.close();
  }

  @Test
  void aRollbackOfAClusterWithheldBeforeTheRolloutWithholdsItAgain() throws Exception {
    fx.subscription("wh", "fleet=wh", "0.9.2");
    fx.update(
        "INSERT INTO rollout_approvals (subscription, cluster, version, rollout_id, withheld) "
            + "VALUES ('wh', 'wh-0001', NULL, 'r-old', ?)",
        WITHHELD);
    HollowFleet agents =
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                1,
                URI.create("http://127.0.0.1:" + port),
                fx.enrollmentToken(1, "{\"fleet\":\"wh\"}"),
                "wh-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0));
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> fx.count("SELECT count(*) FROM clusters WHERE name = 'wh-0001'") == 1);
      HttpResponse<String> created =
          RolloutIT.call(
              port,
              "POST",
              "/rollouts",
              "{\"subscription\":\"wh\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1,"
                  + "\"soakSeconds\":60}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = new JsonObject(created.body()).getString("id");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM rollout_approvals WHERE subscription = 'wh' "
                              + "AND cluster = 'wh-0001' AND version = '0.9.4'")
                      == 1);
      HttpResponse<String> rolledBack =
          RolloutIT.call(port, "POST", "/rollouts/" + id + "/rollback", null);
      assertThat(rolledBack.statusCode()).as(rolledBack.body()).isEqualTo(200);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_approvals WHERE subscription = 'wh' AND cluster = "
                      + "'wh-0001' AND version IS NULL AND withheld = ?",
                  WITHHELD))
          .as("the withheld approval is back, not withdrawn")
          .isEqualTo(1);
    } finally {
      agents.close();
    }
  }
}
