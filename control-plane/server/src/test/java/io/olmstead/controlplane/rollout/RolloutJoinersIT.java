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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clusters that join a placement mid-rollout go through the calendar and the preflight like wave
 * members (hollow agents, real PostgreSQL); a rollback withdraws the approval of a cluster that ran
 * nothing before the rollout.
 */
class RolloutJoinersIT {
  private static DatabaseSettings db;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static ControlPlane cp;
  private static int port;
  private static final MovableClock CLOCK = new MovableClock();

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(RolloutJoinersIT.class);
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

  private static HollowFleet fleet(String prefix, int count, String labelsJson) {
    return HollowFleet.start(
        vertx,
        new HollowFleet.Settings(
            count,
            URI.create("http://127.0.0.1:" + port),
            fx.enrollmentToken(count, labelsJson),
            prefix,
            Duration.ofMillis(300),
            0.0,
            Map.of(),
            null,
            0));
  }

  private static JsonObject ok(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return response.body().isEmpty() ? new JsonObject() : new JsonObject(response.body());
  }

  private static String approval(String cluster) {
    var rows = fx.query("SELECT version FROM rollout_approvals WHERE cluster = ?", cluster);
    return rows.isEmpty() ? null : (String) rows.get(0).get("version");
  }

  private static String step(String id, String cluster) {
    var rows =
        fx.query(
            "SELECT step FROM rollout_clusters WHERE rollout_id = ? AND cluster = ?", id, cluster);
    return rows.isEmpty() ? null : (String) rows.get(0).get("step");
  }

  @Test
  void aJoinerWaitsForItsFreezeToEndAndItsPreflightBeforeItGetsTheTarget() throws Exception {
    fx.subscription("jn", "fleet=jn", "0.9.2");
    HollowFleet early = fleet("jn-", 2, "{\"fleet\":\"jn\"}");
    HollowFleet late = null;
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'jn' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 2);
      ok(
          RolloutIT.call(
              port,
              "PUT",
              "/freezes/late",
              new JsonObject()
                  .put("selector", "late=yes")
                  .put("start", Instant.now().minusSeconds(60).toString())
                  .put("end", Instant.now().plusSeconds(3600).toString())
                  .put("reason", "test")
                  .encode()),
          201);
      String id =
          ok(
                  RolloutIT.call(
                      port,
                      "POST",
                      "/rollouts",
                      "{\"subscription\":\"jn\",\"targetVersion\":"
                          + "\"0.9.4\",\"strategy\":{\"batchSize\":1,\"soakSeconds\":4}}"),
                  201)
              .getString("id");
      // the first wave soaks; the clock jumps past its soak
      await().atMost(Duration.ofSeconds(30)).until(() -> soakedOrDone(id, 0));
      CLOCK.jumpTo(CLOCK.instant().plusSeconds(5));
      await().atMost(Duration.ofSeconds(30)).until(() -> waves(id, 0, "Succeeded") == 1);

      // a wave succeeded: before, a joiner got the target at once, frozen or not, never preflighted
      late = fleet("jn-late-", 1, "{\"fleet\":\"jn\",\"late\":\"yes\"}");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "Pending".equals(step(id, "jn-late-0001")));
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterJoined' "
                      + "AND cluster = 'jn-late-0001' AND wave IS NOT NULL",
                  id))
          .isEqualTo(1);
      // the wave's other member settles; the wave soaks only when the joiner came after that (a
      // joiner admitted
      // while it was Open keeps it Open, as it is not settled): either way it must not succeed
      // without the joiner
      await().atMost(Duration.ofSeconds(30)).until(() -> "Succeeded".equals(step(id, "jn-0002")));
      // past the soak (the clock jumps 5 s) and two steps later: the wave waits for its frozen
      // joiner
      CLOCK.jumpTo(CLOCK.instant().plusSeconds(5));
      long ticked = cp.rollouts().engine().completedTicks();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> cp.rollouts().engine().completedTicks() >= ticked + 2);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_waves WHERE rollout_id = ? AND idx = 1 AND state IN "
                      + "('Open', 'Soaking')",
                  id))
          .as("wave 1 waits for its frozen joiner")
          .isEqualTo(1);
      assertThat(step(id, "jn-late-0001")).isEqualTo("Pending");
      assertThat(approval("jn-late-0001")).as("held where it runs while frozen").isEqualTo("0.9.2");
      assertThat(ok(RolloutIT.call(port, "GET", "/rollouts/" + id, null), 200).getString("state"))
          .isEqualTo("Progressing");
      assertThat(
              fx.count(
                  "SELECT count(*) FROM preflight_checks WHERE cluster = 'jn-late-0001' AND requester = ? "
                      + "AND version = '0.9.4'",
                  id))
          .as("the joiner is preflighted like a wave member")
          .isEqualTo(1);

      ok(RolloutIT.call(port, "DELETE", "/freezes/late", null), 204);
      // the joiner moves; once its wave soaks the clock jumps past the soak
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "Succeeded".equals(step(id, "jn-late-0001")));
      await().atMost(Duration.ofSeconds(30)).until(() -> soakedOrDone(id, 1));
      CLOCK.jumpTo(CLOCK.instant().plusSeconds(5));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "Succeeded"
                      .equals(
                          ok(RolloutIT.call(port, "GET", "/rollouts/" + id, null), 200)
                              .getString("state")));
      assertThat(step(id, "jn-late-0001")).isEqualTo("Succeeded");
      assertThat(
              fx.count(
                  "SELECT count(*) FROM preflight_checks WHERE cluster = 'jn-late-0001' AND requester = ? "
                      + "AND verdict = 'Pass'",
                  id))
          .isEqualTo(1);
    } finally {
      early.close();
      if (late != null) {
        late.close();
      }
    }
  }

  @Test
  void aRollbackWithdrawsTheTargetFromAClusterThatRanNothingBefore() throws Exception {
    fx.subscription("fr", "fleet=fr", "0.9.2");
    HollowFleet agents = fleet("fr-", 1, "{\"fleet\":\"fr\"}");
    // never connected: takes part with nothing installed, approved while offline
    fx.update("INSERT INTO clusters (name, labels) VALUES ('fr-fresh', '{\"fleet\":\"fr\"}')");
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'fr' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 1);
      String id =
          ok(
                  RolloutIT.call(
                      port,
                      "POST",
                      "/rollouts",
                      "{\"subscription\":\"fr\",\"targetVersion\":"
                          + "\"0.9.4\",\"strategy\":{\"batchSize\":2,\"soakSeconds\":60,\"preflight\":\"Off\"}}"),
                  201)
              .getString("id");
      await().atMost(Duration.ofSeconds(30)).until(() -> "0.9.4".equals(approval("fr-fresh")));
      ok(RolloutIT.call(port, "POST", "/rollouts/" + id + "/rollback", null), 200);
      assertThat(approval("fr-fresh"))
          .as("no approval before the rollout, none after its rollback")
          .isNull();
      assertThat(step(id, "fr-fresh")).isEqualTo("RolledBack");
      assertThat(approval("fr-0001")).isEqualTo("0.9.2");
    } finally {
      agents.close();
    }
  }

  /** Moves the clock {@code seconds} ahead and waits for two engine steps after that. */
  private static void jumpAndStep(long seconds) {
    CLOCK.jumpTo(CLOCK.instant().plusSeconds(seconds));
    long ticked = cp.rollouts().engine().completedTicks();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> cp.rollouts().engine().completedTicks() >= ticked + 2);
  }

  /** Whether the wave soaks or already succeeded (a soak shorter than a poll may pass unseen). */
  private static boolean soakedOrDone(String id, int idx) {
    return waves(id, idx, "Soaking") + waves(id, idx, "Succeeded") == 1;
  }

  private static long waves(String id, int idx, String state) {
    return fx.count(
        "SELECT count(*) FROM rollout_waves WHERE rollout_id = ? AND idx = ? AND state = ?",
        id,
        idx,
        state);
  }

  /**
   * A cluster of a running rollout whose HostedCluster gets paused (the watcher sets
   * hypershift.olmstead.io/paused) is never approved while the label is on: its wave waits, and it
   * is approved once the pause ends.
   */
  @Test
  void aClusterPausedMidRolloutIsNotApprovedUntilThePauseEnds() throws Exception {
    fx.subscription("ph", "fleet=ph", "0.9.2");
    HollowFleet agents = fleet("ph-", 2, "{\"fleet\":\"ph\"}");
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'ph' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 2);
      String id =
          ok(
                  RolloutIT.call(
                      port,
                      "POST",
                      "/rollouts",
                      "{\"subscription\":\"ph\",\"targetVersion\":\"0.9.4\","
                          + "\"strategy\":{\"batchSize\":1,\"soakSeconds\":3}}"),
                  201)
              .getString("id");
      String second =
          (String)
              fx.query("SELECT cluster FROM rollout_clusters WHERE rollout_id = ? AND wave = 1", id)
                  .get(0)
                  .get("cluster");
      // what the HyperShift watcher writes when the HostedCluster is paused
      fx.update(
          "UPDATE clusters SET labels = labels || '{\"hypershift.olmstead.io/paused\":\"true\"}' WHERE name = ?",
          second);
      // the first wave soaks; the clock jumps past its soak
      await().atMost(Duration.ofSeconds(30)).until(() -> waves(id, 0, "Soaking") == 1);
      jumpAndStep(4);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM rollout_clusters WHERE "
                              + "rollout_id = ? AND cluster = ? AND message = 'held: its HostedCluster is paused'",
                          id,
                          second)
                      == 1);
      // longer than the soak, two engine steps later: a rollout ignoring the pause would have
      // approved it
      jumpAndStep(4);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND cluster = ? "
                      + "AND approved_version IS NULL AND step = 'Pending'",
                  id,
                  second))
          .isEqualTo(1);
      assertThat(
              fx.count("SELECT count(*) FROM rollouts WHERE id = ? AND state = 'Progressing'", id))
          .isEqualTo(1);

      fx.update(
          "UPDATE clusters SET labels = labels - 'hypershift.olmstead.io/paused' WHERE name = ?",
          second);
      await().atMost(Duration.ofSeconds(30)).until(() -> waves(id, 1, "Soaking") == 1);
      jumpAndStep(4);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count("SELECT count(*) FROM rollouts WHERE id = ? AND state = 'Succeeded'", id)
                      == 1);
    } finally {
      agents.close();
    }
  }
}
