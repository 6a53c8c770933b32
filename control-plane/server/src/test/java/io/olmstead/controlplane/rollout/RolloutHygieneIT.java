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
 * Rollout hygiene on hollow clusters: nothing to do is a 409 unless forced, rule violations of the
 * strategy are 422 naming the field (like schema errors), and a cluster failing before the rollout
 * counts only when it fails again, ending a rollout with {@code onFailure: fail} Failed.
 */
class RolloutHygieneIT {
  private static DatabaseSettings db;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static ControlPlane cp;
  private static int port;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(RolloutHygieneIT.class);
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

  private static HollowFleet fleet(
      String prefix, int count, String labelsJson, double failureRate) {
    return HollowFleet.start(
        vertx,
        new HollowFleet.Settings(
            count,
            URI.create("http://127.0.0.1:" + port),
            fx.enrollmentToken(count, labelsJson),
            prefix,
            Duration.ofMillis(300),
            failureRate,
            Map.of(),
            null,
            0));
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return RolloutIT.call(port, "POST", path, body);
  }

  private static JsonObject problem(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return new JsonObject(response.body());
  }

  @Test
  void aRolloutToTheVersionEveryClusterRunsIsRefusedUnlessForced() throws Exception {
    fx.subscription("same", "fleet=same", "0.9.4");
    try (HollowFleet agents = fleet("same-", 2, "{\"fleet\":\"same\"}", 0.0)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'same' AND installed_version = '0.9.4' AND phase = 'Succeeded'")
                      == 2);
      String body = "{\"subscription\":\"same\",\"targetVersion\":\"0.9.4\"}";
      assertThat(
              new JsonObject(post("/rollouts/preview", body).body()).getBoolean("alreadyAtTarget"))
          .isTrue();
      JsonObject refused = problem(post("/rollouts", body), 409);
      assertThat(refused.getString("detail")).contains("already runs 0.9.4").contains("force");
      assertThat(fx.count("SELECT count(*) FROM rollouts WHERE subscription = 'same'")).isZero();
      HttpResponse<String> forced =
          post(
              "/rollouts",
              "{\"subscription\":\"same\",\"targetVersion\":\"0.9.4\"," + "\"force\":true}");
      assertThat(forced.statusCode()).as(forced.body()).isEqualTo(201);
    }
  }

  @Test
  void strategyRuleViolationsAre422NamingTheField() throws Exception {
    fx.subscription("rules", "fleet=rules", "0.9.2");
    try (HollowFleet agents = fleet("rules-", 1, "{\"fleet\":\"rules\",\"region\":\"eu\"}", 0.0)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM clusters WHERE name LIKE "
                              + "'rules-%' AND status = 'connected'")
                      == 1);
      for (String path : new String[] {"/rollouts", "/rollouts/preview"}) {
        JsonObject noLabel =
            problem(
                post(
                    path,
                    "{\"subscription\":\"rules\",\"targetVersion\":\"0.9.4\","
                        + "\"strategy\":{\"groupBy\":\"ring\"}}"),
                422);
        assertThat(noLabel.getJsonArray("errors").getJsonObject(0).getString("field"))
            .isEqualTo("/strategy/groupBy");
        JsonObject both =
            problem(
                post(
                    path,
                    "{\"subscription\":\"rules\",\"targetVersion\":\"0.9.4\","
                        + "\"strategy\":{\"batchSize\":1,\"batchPercent\":10}}"),
                422);
        assertThat(both.getJsonArray("errors").getJsonObject(0).getString("field"))
            .isEqualTo("/strategy/batchPercent");
        // what the schema says is checked by the schema validator (422 too, its own detail), before
        // the rules
        JsonObject schema =
            problem(
                post(
                    path,
                    "{\"subscription\":\"rules\",\"targetVersion\":\"0.9.4\","
                        + "\"strategy\":{\"batchSize\":0}}"),
                422);
        assertThat(schema.getString("detail"))
            .isEqualTo("the request body does not match the schema");
        assertThat(
                schema.getJsonArray("errors").stream()
                    .map(e -> ((JsonObject) e).getString("field")))
            .contains("/strategy/batchSize");
        // a number past 32 bits was read as its low bits (4294967297 became batchSize 1): the
        // schema bounds it
        JsonObject huge =
            problem(
                post(
                    path,
                    "{\"subscription\":\"rules\",\"targetVersion\":\"0.9.4\","
                        + "\"strategy\":{\"batchSize\":4294967297,\"canary\":{\"count\":4294967298}}}"),
                422);
        assertThat(
                huge.getJsonArray("errors").stream().map(e -> ((JsonObject) e).getString("field")))
            .contains("/strategy/batchSize");
      }
      assertThat(fx.count("SELECT count(*) FROM rollouts WHERE subscription = 'rules'")).isZero();
    }
  }

  @Test
  void aClusterFailingBeforeTheRolloutIsListedAndEndsAFailRolloutFailedOnlyWhenItFailsAgain()
      throws Exception {
    fx.subscription("ff", "fleet=ff", "0.9.2");
    try (HollowFleet good = fleet("ff-good-", 2, "{\"fleet\":\"ff\"}", 0.0);
        HollowFleet bad = fleet("ff-bad-", 1, "{\"fleet\":\"ff\"}", 1.0)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                              "SELECT count(*) FROM subscription_status WHERE "
                                  + "subscription = 'ff' AND phase = 'Failed'")
                          == 1
                      && fx.count(
                              "SELECT count(*) FROM subscription_status "
                                  + "WHERE subscription = 'ff' AND phase = 'Succeeded'")
                          == 2);
      String body =
          "{\"subscription\":\"ff\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"onFailure\":\"fail\","
              + "\"progressDeadlineSeconds\":20}}";
      JsonObject preview = new JsonObject(post("/rollouts/preview", body).body());
      assertThat(preview.getJsonArray("failing")).hasSize(1);
      assertThat(preview.getJsonArray("failing").getJsonObject(0).getString("name"))
          .startsWith("ff-bad-");
      HttpResponse<String> created = post("/rollouts", body);
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      String id = new JsonObject(created.body()).getString("id");
      await()
          .atMost(Duration.ofSeconds(40))
          .until(
              () ->
                  !"Progressing"
                      .equals(
                          new JsonObject(
                                  RolloutIT.call(port, "GET", "/rollouts/" + id, null).body())
                              .getString("state")));
      JsonObject done = new JsonObject(RolloutIT.call(port, "GET", "/rollouts/" + id, null).body());
      assertThat(done.getString("state")).as(done.encode()).isEqualTo("Failed");
      assertThat(done.getString("message")).contains("exceed the budget");
      assertThat(done.getJsonObject("counts").getInteger("failed")).isEqualTo(1);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_approvals WHERE subscription = 'ff' AND version = '0.9.4'"))
          .as("a Failed rollout leaves its approvals")
          .isEqualTo(3);
    }
  }
}
