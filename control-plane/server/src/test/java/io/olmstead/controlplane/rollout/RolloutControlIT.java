package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.http.StartupGate;
import io.olmstead.controlplane.server.ControlPlane;
import io.olmstead.controlplane.testsupport.MovableClock;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Failure budgets, rollback, pause/resume/promote/abort, with hollow agents and real PostgreSQL.
 * Soaks and deadlines pass on the control plane's clock, which the tests move forward instead of
 * waiting for them.
 */
class RolloutControlIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static DatabaseSettings db;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static ControlPlane cp;
  private static final MovableClock CLOCK = new MovableClock();
  private static int port;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(RolloutControlIT.class);
    vertx = Vertx.vertx();
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1")
            .withPort(0)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    cp =
        ControlPlane.start(config, StartupGate.open(), CLOCK)
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

  /**
   * Moves the control plane's clock to {@code due} and waits until the engine has stepped twice
   * after: it has done whatever it does by then.
   */
  private static void engineStepsAfter(Instant due) {
    CLOCK.jumpTo(due);
    long ticked = cp.rollouts().engine().completedTicks();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> cp.rollouts().engine().completedTicks() >= ticked + 2);
  }

  /** When the rollout last approved a cluster (the epoch when it approved none). */
  private static Instant lastApproval(String id) {
    return Instant.ofEpochMilli(
        fx.count(
            "SELECT coalesce((extract(epoch FROM max(approved_at)) * 1000)::bigint, 0)"
                + " FROM rollout_clusters WHERE rollout_id = ?",
            id));
  }

  private static Instant laterOf(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static long installed(String subscription, String version) {
    return fx.count(
        "SELECT count(*) FROM subscription_status WHERE subscription = ? AND installed_version = ? "
            + "AND phase = 'Succeeded'",
        subscription,
        version);
  }

  private static JsonObject rollout(String id) throws Exception {
    return new JsonObject(RolloutIT.call(port, "GET", "/rollouts/" + id, null).body());
  }

  /**
   * Moves the clock past the soak ({@code seconds}) of each wave of the rollout as the wave starts
   * soaking: the waves succeed one after the other without waiting for it.
   */
  private static void soaksPass(String id, int seconds) throws Exception {
    int waves = rollout(id).getJsonArray("waves").size();
    for (int i = 0; i < waves; i++) {
      int wave = i;
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Set.of("Soaking", "Succeeded").contains(waveState(id, wave)));
      if ("Soaking".equals(waveState(id, wave))) {
        CLOCK.jumpTo(CLOCK.instant().plusSeconds(seconds));
      }
    }
  }

  private static String waveState(String id, int wave) throws Exception {
    return rollout(id).getJsonArray("waves").getJsonObject(wave).getString("state");
  }

  private static long approved(String id) {
    return fx.count(
        "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND approved_version = '0.9.4'",
        id);
  }

  private static String create(String body) throws Exception {
    HttpResponse<String> created = RolloutIT.call(port, "POST", "/rollouts", body);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return new JsonObject(created.body()).getString("id");
  }

  @Test
  void failuresBeyondTheBudgetRollTheApprovedClustersBack() throws Exception {
    fx.subscription("rb", "fleet=rb", "0.9.2");
    HollowFleet good = fleet("rb-good-", 6, "{\"fleet\":\"rb\",\"ring\":\"0\"}", 0.0);
    HollowFleet bad = fleet("rb-bad-", 2, "{\"fleet\":\"rb\",\"ring\":\"1\"}", 1.0);
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  installed("rb", "0.9.2") == 6
                      && fx.count(
                              "SELECT count(*) FROM subscription_status WHERE subscription = 'rb'")
                          == 8);
      String id =
          create(
              "{\"subscription\":\"rb\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":6,"
                  + "\"order\":[\"ring\"],\"onFailure\":\"rollback\",\"progressDeadlineSeconds\":20}}");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "RolledBack".equals(rollout(id).getString("state")));
      JsonObject done = rollout(id);
      assertThat(done.getJsonObject("counts").getInteger("failed")).isEqualTo(2);
      assertThat(done.getJsonObject("counts").getInteger("rolledBack")).isEqualTo(6);
      assertThat(done.getString("message")).contains("exceed the budget");
      // the agents go back to what they ran before
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("rb", "0.9.2") == 6);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_approvals WHERE subscription = 'rb' AND version = '0.9.2'"))
          .isEqualTo(6);
      HttpResponse<String> failed =
          RolloutIT.call(port, "GET", "/rollouts/" + id + "/clusters?state=Failed", null);
      assertThat(new JsonObject(failed.body()).getJsonArray("items")).hasSize(2);
    } finally {
      good.close();
      bad.close();
    }
  }

  @Test
  void failuresBeyondTheBudgetPauseAndAnOperatorResumesAcceptingThem() throws Exception {
    fx.subscription("pf", "fleet=pf", "0.9.2");
    HollowFleet good = fleet("pf-good-", 3, "{\"fleet\":\"pf\",\"ring\":\"1\"}", 0.0);
    HollowFleet bad = fleet("pf-bad-", 1, "{\"fleet\":\"pf\",\"ring\":\"0\"}", 1.0);
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  installed("pf", "0.9.2") == 3
                      && fx.count(
                              "SELECT count(*) FROM subscription_status WHERE subscription = 'pf'")
                          == 4);
      String id =
          create(
              "{\"subscription\":\"pf\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"canary\":"
                  + "{\"count\":1},\"batchSize\":3,\"order\":[\"ring\"],\"progressDeadlineSeconds\":20}}");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> "Paused".equals(rollout(id).getString("state")));
      assertThat(approved(id)).isEqualTo(1);
      HttpResponse<String> resumed =
          RolloutIT.call(port, "POST", "/rollouts/" + id + "/resume", null);
      assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
      // the accepted failure is not at the target: the end says so and names it
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "SucceededWithExceptions".equals(rollout(id).getString("state")));
      assertThat(rollout(id).getString("message"))
          .startsWith("1 of 4 clusters not at 0.9.4: pf-bad-0001 (Failed");
      assertThat(installed("pf", "0.9.4")).isEqualTo(3);
    } finally {
      good.close();
      bad.close();
    }
  }

  @Test
  void pauseStopsApprovalsResumeAndPromoteContinueAbortEndsIt() throws Exception {
    fx.subscription("pz", "fleet=pz", "0.9.2");
    HollowFleet agents = fleet("pz-", 4, "{\"fleet\":\"pz\"}", 0.0);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> installed("pz", "0.9.2") == 4);
      String id =
          create(
              "{\"subscription\":\"pz\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1,"
                  + "\"soakSeconds\":2}}");
      // a token of another team may not drive it, nor learn that it exists
      HttpResponse<String> teamToken =
          RolloutIT.call(
              port,
              "POST",
              "/tokens",
              "{\"name\":\"blue-operator\"," + "\"role\":\"operator\",\"teams\":[\"blue\"]}");
      assertThat(teamToken.statusCode()).as(teamToken.body()).isEqualTo(201);
      HttpResponse<String> refused =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:" + port + "/api/v1/rollouts/" + id + "/pause"))
                      .header(
                          "Authorization",
                          "Bearer " + new JsonObject(teamToken.body()).getString("token"))
                      .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(404);
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/pause", null).statusCode())
          .isEqualTo(200);
      long before = approved(id);
      // the member approved before the pause (if any) installs the target: a running rollout would
      // go on to soak it 2 s
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("pz", "0.9.4") == before);
      // past the time a running rollout would have approved more (its first member installed and
      // soaked, 2 s, from its approval or from now), and two engine steps later
      engineStepsAfter(laterOf(lastApproval(id), CLOCK.instant()).plusMillis(2_300));
      assertThat(approved(id)).isEqualTo(before).isLessThanOrEqualTo(1);
      assertThat(rollout(id).getString("state")).isEqualTo("Paused");
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/pause", null).statusCode())
          .isEqualTo(409);
      // a cluster joining the placement mid-rollout gets the last completed wave's version (none
      // yet: 0.9.2)
      HollowFleet late = fleet("pz-late-", 1, "{\"fleet\":\"pz\"}", 0.0);
      try {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    fx.count(
                            "SELECT count(*) FROM subscription_status "
                                + "WHERE cluster = 'pz-late-0001' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                        == 1);
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () ->
                    assertThat(
                            fx.query(
                                "SELECT version FROM "
                                    + "rollout_approvals WHERE cluster = 'pz-late-0001'"))
                        .extracting(r -> r.get("version"))
                        .containsExactly("0.9.2"));
        assertThat(
                fx.count(
                    "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterJoined'",
                    id))
            .isEqualTo(1);
      } finally {
        late.close();
      }
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/resume", null).statusCode())
          .isEqualTo(200);
      await().atMost(Duration.ofSeconds(20)).until(() -> approved(id) >= 2);
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/promote", null).statusCode())
          .isEqualTo(200);
      long promoted = approved(id);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> approved(id) > promoted || approved(id) == 4);
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/abort", null).statusCode())
          .isEqualTo(200);
      long atAbort = approved(id);
      assertThat(rollout(id).getString("state")).isEqualTo("Aborted");
      long ticked = cp.rollouts().engine().completedTicks();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> cp.rollouts().engine().completedTicks() >= ticked + 3);
      assertThat(approved(id)).isEqualTo(atAbort);
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/resume", null).statusCode())
          .isEqualTo(409);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM audit_log WHERE action IN ('rollout.pause', 'rollout.resume', "
                      + "'rollout.promote', 'rollout.abort') AND resource = ? AND outcome = 'success'",
                  "rollouts/" + id))
          .isEqualTo(4);
      // a new rollout for the subscription is allowed once this one ended
      HttpResponse<String> next =
          RolloutIT.call(
              port,
              "POST",
              "/rollouts/preview",
              "{\"subscription\":\"pz\"," + "\"targetVersion\":\"0.9.4\"}");
      assertThat(next.statusCode()).as(next.body()).isEqualTo(200);
      HttpResponse<String> unreachable =
          RolloutIT.call(
              port,
              "POST",
              "/rollouts",
              "{\"subscription\":\"pz\"," + "\"targetVersion\":\"9.9.9\"}");
      assertThat(unreachable.statusCode()).as(unreachable.body()).isEqualTo(422);
    } finally {
      agents.close();
    }
  }

  @Test
  void aRetriedPromoteOfAWaveThatHasEndedIsRefusedAndEndsNoOtherWave() throws Exception {
    fx.subscription("pw", "fleet=pw", "0.9.2");
    HollowFleet agents = fleet("pw-", 2, "{\"fleet\":\"pw\"}", 0.0);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> installed("pw", "0.9.2") == 2);
      // each wave soaks an hour: only a promote ends one
      String id =
          create(
              "{\"subscription\":\"pw\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1,"
                  + "\"soakSeconds\":3600}}");
      String first = rollout(id).getJsonArray("waves").getJsonObject(0).getString("name");
      String second = rollout(id).getJsonArray("waves").getJsonObject(1).getString("name");
      HttpResponse<String> promoted =
          RolloutIT.call(port, "POST", "/rollouts/" + id + "/promote?wave=" + first, null);
      assertThat(promoted.statusCode()).as(promoted.body()).isEqualTo(200);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  "Succeeded"
                      .equals(
                          rollout(id).getJsonArray("waves").getJsonObject(0).getString("state")));

      // the same request again (a client's retry): the wave it names has ended, the next one is
      // left alone
      HttpResponse<String> retried =
          RolloutIT.call(port, "POST", "/rollouts/" + id + "/promote?wave=" + first, null);
      assertThat(retried.statusCode()).as(retried.body()).isEqualTo(409);
      assertThat(new JsonObject(retried.body()).getString("detail"))
          .contains("wave " + first)
          .contains("the waiting wave is " + second);
      assertThat(fx.count("SELECT count(*) FROM rollouts WHERE id = ? AND promote_requested", id))
          .isZero();
      assertThat(rollout(id).getJsonArray("waves").getJsonObject(1).getString("state"))
          .isNotEqualTo("Succeeded");
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/abort", null).statusCode())
          .isEqualTo(200);
    } finally {
      agents.close();
    }
  }

  @Test
  void aPromoteWithAStaleIfMatchIsRefusedWith412AndChangesNothingAndOneWithTheCurrentTagPromotes()
      throws Exception {
    fx.subscription("pm", "fleet=pm", "0.9.2");
    HollowFleet agents = fleet("pm-", 2, "{\"fleet\":\"pm\"}", 0.0);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> installed("pm", "0.9.2") == 2);
      // each wave soaks an hour: only a promote ends one
      String id =
          create(
              "{\"subscription\":\"pm\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1,"
                  + "\"soakSeconds\":3600}}");
      HttpResponse<String> read = RolloutIT.call(port, "GET", "/rollouts/" + id, null);
      String stale = read.headers().firstValue("ETag").orElseThrow();
      assertThat(stale)
          .isEqualTo("\"" + new JsonObject(read.body()).getLong("resourceVersion") + "\"");
      // the rollout moves on after that read
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/pause", null).statusCode())
          .isEqualTo(200);
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/resume", null).statusCode())
          .isEqualTo(200);

      HttpResponse<String> refused = promote(id, stale);

      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(412);
      assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      assertThat(new JsonObject(refused.body()).getString("detail")).contains("If-Match " + stale);
      assertThat(fx.count("SELECT count(*) FROM rollouts WHERE id = ? AND promote_requested", id))
          .isZero();
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'PromoteRequested'",
                  id))
          .isZero();

      // the current tag promotes (a tag the engine outdates between the read and the promote is
      // refused the same way)
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                String current =
                    RolloutIT.call(port, "GET", "/rollouts/" + id, null)
                        .headers()
                        .firstValue("ETag")
                        .orElseThrow();
                HttpResponse<String> promoted = promote(id, current);
                assertThat(promoted.statusCode()).as(promoted.body()).isIn(200, 412);
                return promoted.statusCode() == 200;
              });
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  "Succeeded"
                      .equals(
                          rollout(id).getJsonArray("waves").getJsonObject(0).getString("state")));
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/abort", null).statusCode())
          .isEqualTo(200);
    } finally {
      agents.close();
    }
  }

  private static HttpResponse<String> promote(String id, String ifMatch) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/rollouts/" + id + "/promote"))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN)
            .header("If-Match", ifMatch)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aClusterOfflineMidWaveWaitsPastTheDeadlineAndFinishesWhenItReturns() throws Exception {
    fx.subscription("off", "fleet=off", "0.9.2");
    java.nio.file.Path credentials = java.nio.file.Files.createTempDirectory("rollout-off");
    HollowFleet online = fleet("off-a-", 2, "{\"fleet\":\"off\"}", 0.0);
    String token = fx.enrollmentToken(1, "{\"fleet\":\"off\"}");
    // slow to install: it goes offline after its approval arrived, before it could report the
    // target
    HollowFleet.Settings slow =
        new HollowFleet.Settings(
            1,
            URI.create("http://127.0.0.1:" + port),
            token,
            "off-b-",
            Duration.ofSeconds(6),
            0.0,
            Map.of(),
            credentials,
            0);
    HollowFleet leaving = HollowFleet.start(vertx, slow);
    HollowFleet back = null;
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> installed("off", "0.9.2") == 3);
      String id =
          create(
              "{\"subscription\":\"off\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":3,"
                  + "\"progressDeadlineSeconds\":3}}");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM agent_channel_state a JOIN "
                              + "rollout_clusters rc ON rc.cluster = a.cluster WHERE rc.rollout_id = ? AND a.cluster = 'off-b-0001' "
                              + "AND rc.approved_version = '0.9.4' AND a.acked_generation IS NOT NULL AND a.acked_at >= rc.approved_at",
                          id)
                      == 1);
      // its deadline runs from its approval or ack, both before this
      Instant acked = CLOCK.instant();
      leaving.close();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM clusters WHERE name = "
                              + "'off-b-0001' AND status = 'disconnected'")
                      == 1);
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("off", "0.9.4") == 2);
      // long past the progress deadline (3 s), two engine steps later: the offline cluster is still
      // waiting, not failed
      engineStepsAfter(acked.plusSeconds(30));
      JsonObject waiting = rollout(id);
      assertThat(waiting.getString("state")).isEqualTo("Progressing");
      assertThat(waiting.getJsonObject("counts").getInteger("failed")).isZero();
      assertThat(waiting.getJsonObject("counts").getInteger("progressing")).isEqualTo(1);
      assertThat(installed("off", "0.9.4"))
          .as("it never reported the target before going away")
          .isEqualTo(2);
      // back online: its deadline runs again from its return (on the same clock), not from its
      // approval, 30 s ago
      back =
          HollowFleet.start(
              vertx,
              new HollowFleet.Settings(
                  1,
                  URI.create("http://127.0.0.1:" + port),
                  token,
                  "off-b-",
                  Duration.ofMillis(300),
                  0.0,
                  Map.of(),
                  credentials,
                  0));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "Succeeded".equals(rollout(id).getString("state")));
      assertThat(installed("off", "0.9.4")).isEqualTo(3);
    } finally {
      online.close();
      if (back != null) {
        back.close();
      }
    }
  }

  @Test
  void
      aClusterBlockedByUpgradeableFalseIsHeldThroughTheRolloutAndTheSubscriptionTakesTheTargetAtTheEnd()
          throws Exception {
    fx.subscription("blk", "fleet=blk", "0.9.2");
    HollowFleet agents = fleet("blk-", 3, "{\"fleet\":\"blk\"}", 0.0);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> installed("blk", "0.9.2") == 3);
      // what a real agent reports while the operator's OperatorCondition says Upgradeable=False
      fx.update(
          "UPDATE subscription_status SET conditions = '[{\"type\":\"Upgradeable\",\"status\":\"False\","
              + "\"reason\":\"OperatorConditionNotUpgradeable\"}]'::jsonb WHERE subscription = 'blk' AND cluster = ?",
          "blk-0003");
      HttpResponse<String> preview =
          RolloutIT.call(
              port,
              "POST",
              "/rollouts/preview",
              "{\"subscription\":\"blk\"," + "\"targetVersion\":\"0.9.4\"}");
      assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
      assertThat(new JsonObject(preview.body()).getJsonArray("excluded").getJsonObject(0).getMap())
          .containsEntry("name", "blk-0003")
          .containsEntry("reason", "blocked: last reported Upgradeable=False");
      // soak keeps the rollout going after the first wave succeeded, long enough for newcomers to
      // be looked for
      String id =
          create(
              "{\"subscription\":\"blk\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1,"
                  + "\"soakSeconds\":4}}");
      // the rollout declared its target: the same pin again is no change; another one would fight
      // it
      String declared =
          "{\"catalog\":\"demo\",\"package\":\"etcd\",\"channel\":\"alpha\",\"namespace\":\"etcd\","
              + "\"placement\":{\"selector\":\"fleet=blk\"},\"version\":{\"pin\":\"0.9.4\"},\"approval\":\"Automatic\"}";
      HttpResponse<String> same = RolloutIT.call(port, "PUT", "/subscriptions/blk", declared);
      assertThat(same.statusCode()).as(same.body()).isEqualTo(200);
      assertThat(new JsonObject(same.body()).getJsonObject("appliedVersion").getString("pin"))
          .isEqualTo("0.9.2");
      HttpResponse<String> fighting =
          RolloutIT.call(port, "PUT", "/subscriptions/blk", declared.replace("0.9.4", "0.9.2"));
      assertThat(fighting.statusCode()).as(fighting.body()).isEqualTo(409);
      assertThat(RolloutIT.call(port, "DELETE", "/subscriptions/blk", null).statusCode())
          .isEqualTo(409);
      soaksPass(id, 4);
      await()
          .atMost(Duration.ofSeconds(40))
          .until(() -> "Succeeded".equals(rollout(id).getString("state")));
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterExcluded' "
                      + "AND cluster = 'blk-0003'",
                  id))
          .isEqualTo(1);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterJoined'",
                  id))
          .as("the excluded cluster is not a newcomer")
          .isZero();
      // the declared pin (the target) now applies and no rollout approval overrides it: the held
      // cluster follows
      // (a real agent would wait for its operator to say Upgradeable again)
      assertThat(
              fx.count(
                  "SELECT count(*) FROM subscriptions WHERE name = 'blk' AND version_value = '0.9.4' "
                      + "AND applied_version_kind IS NULL"))
          .isEqualTo(1);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM audit_log WHERE action = 'subscription.applied' "
                      + "AND resource = 'subscriptions/blk' AND actor = ? AND detail->>'version' = '0.9.4'",
                  RolloutEngine.ACTOR))
          .as("the declared version the rollout let apply is audited")
          .isEqualTo(1);
      assertThat(fx.count("SELECT count(*) FROM rollout_approvals WHERE subscription = 'blk'"))
          .isZero();
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("blk", "0.9.4") == 3);
    } finally {
      agents.close();
    }
  }

  @Test
  void anOperatorRollsBackARolloutMidWayAndTheApprovedClustersGoBack() throws Exception {
    fx.subscription("orb", "fleet=orb", "0.9.2");
    HollowFleet agents = fleet("orb-", 3, "{\"fleet\":\"orb\"}", 0.0);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> installed("orb", "0.9.2") == 3);
      // the soak holds the rollout after its first wave of one cluster
      String id =
          create(
              "{\"subscription\":\"orb\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":1,"
                  + "\"soakSeconds\":60}}");
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("orb", "0.9.4") == 1);
      HttpResponse<String> rolledBack =
          RolloutIT.call(port, "POST", "/rollouts/" + id + "/rollback", null);
      assertThat(rolledBack.statusCode()).as(rolledBack.body()).isEqualTo(200);
      assertThat(rollout(id).getString("state")).isEqualTo("RolledBack");
      await().atMost(Duration.ofSeconds(20)).until(() -> installed("orb", "0.9.2") == 3);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND step = 'RolledBack' "
                      + "AND approved_version = '0.9.2'",
                  id))
          .isEqualTo(1);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM audit_log WHERE action = 'rollout.rollback' AND resource = ? "
                      + "AND outcome = 'success'",
                  "rollouts/" + id))
          .isEqualTo(1);
      assertThat(RolloutIT.call(port, "POST", "/rollouts/" + id + "/resume", null).statusCode())
          .isEqualTo(409);
    } finally {
      agents.close();
    }
  }
}
