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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A rollout grouped by zone on simulated (hollow) clusters with a maintenance window that opens
 * during the test and a freeze: each wave waits in WaitingForWindow, the engine's replica goes away
 * while the first wave waits, and the replica that takes over approves each cluster once, when its
 * window opens and its freeze ends.
 */
class RolloutWindowsIT {
  private static final String ZONE =
      "Asia/Kolkata"; // +05:30: the window's cron is read in this zone's wall time

  private static ControlPlane start(DatabaseSettings db, Clock clock) throws Exception {
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(Map.of(), "127.0.0.1")
            .withPort(0)
            .withDatabase(db)
            .withAdminToken(TestControlPlane.ADMIN_TOKEN);
    return ControlPlane.start(config, StartupGate.open(), clock)
        .toCompletionStage()
        .toCompletableFuture()
        .get(2, TimeUnit.MINUTES);
  }

  private static HollowFleet fleet(
      Vertx vertx, RolloutFixtures fx, int port, String prefix, String labelsJson) {
    return HollowFleet.start(
        vertx,
        new HollowFleet.Settings(
            2,
            URI.create("http://127.0.0.1:" + port),
            fx.enrollmentToken(2, labelsJson),
            prefix,
            Duration.ofMillis(300),
            0.0,
            Map.of(),
            null,
            0));
  }

  private static JsonObject ok(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return new JsonObject(response.body());
  }

  private static Instant approvedAt(RolloutFixtures fx, String id, String prefix) {
    Object at =
        fx.query(
                "SELECT min(approved_at) AS at FROM rollout_clusters WHERE rollout_id = ? AND cluster LIKE ?",
                id,
                prefix + "%")
            .get(0)
            .get("at");
    return ((java.sql.Timestamp) at).toInstant();
  }

  @Test
  void wavesWaitForTheirWindowAndFreezeAcrossALeaderChangeAndApproveEachClusterOnce()
      throws Exception {
    DatabaseSettings db = TestDatabase.create(RolloutWindowsIT.class);
    Vertx vertx = Vertx.vertx();
    // both replicas read the time from one clock the test moves to the window's opening and the
    // freeze's end
    MovableClock clock = new MovableClock();
    ControlPlane a = start(db, clock);
    ControlPlane b = null;
    HollowFleet zoneA = null;
    HollowFleet zoneB = null;
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> a.rollouts().engine().leader());
      b = start(db, clock);
      ControlPlane follower = b;
      int port = b.port(); // the agents and the API calls go to the replica that stays
      RolloutFixtures fx = new RolloutFixtures(db);
      fx.catalog();
      fx.subscription("win", "fleet=win", "0.9.2");
      zoneA = fleet(vertx, fx, port, "za-", "{\"fleet\":\"win\",\"zone\":\"a\"}");
      zoneB = fleet(vertx, fx, port, "zb-", "{\"fleet\":\"win\",\"zone\":\"b\"}");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status WHERE "
                              + "subscription = 'win' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 4);

      // zone a: a window opening at a whole minute ten minutes away (the clock jumps there); zone
      // b: no window, a
      // freeze until 30 s after that
      Instant now = clock.instant();
      Instant opens = now.truncatedTo(ChronoUnit.MINUTES).plus(10, ChronoUnit.MINUTES);
      Instant thaws = opens.plusSeconds(30);
      ZonedDateTime wall = opens.atZone(ZoneId.of(ZONE));
      ok(
          RolloutIT.call(
              port,
              "PUT",
              "/maintenance-windows/zone-a",
              new JsonObject()
                  .put("selector", "zone=a")
                  .put("cron", wall.getMinute() + " " + wall.getHour() + " * * *")
                  .put("durationMinutes", 30)
                  .put("timeZone", ZONE)
                  .encode()),
          201);
      ok(
          RolloutIT.call(
              port,
              "PUT",
              "/freezes/zone-b",
              new JsonObject()
                  .put("selector", "zone=b")
                  .put("start", now.minusSeconds(3600).toString())
                  .put("end", thaws.toString())
                  .put("reason", "test")
                  .encode()),
          201);

      String body =
          "{\"subscription\":\"win\",\"targetVersion\":\"0.9.4\",\"strategy\":{\"groupBy\":\"zone\","
              + "\"soakSeconds\":1,\"progressDeadlineSeconds\":60}}";
      JsonObject preview = ok(RolloutIT.call(port, "POST", "/rollouts/preview", body), 200);
      JsonArray waves = preview.getJsonArray("waves");
      assertThat(waves.getJsonObject(0).getString("name")).isEqualTo("zone=a");
      assertThat(Instant.parse(waves.getJsonObject(0).getString("windowOpensAt"))).isEqualTo(opens);
      assertThat(waves.getJsonObject(1).getString("name")).isEqualTo("zone=b");
      assertThat(Instant.parse(waves.getJsonObject(1).getString("windowOpensAt"))).isEqualTo(thaws);
      assertThat(preview.getJsonArray("groups").getJsonObject(0).getMap())
          .containsEntry("value", "a")
          .containsEntry("clusters", 2);

      String id = ok(RolloutIT.call(port, "POST", "/rollouts", body), 201).getString("id");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  "WaitingForWindow"
                      .equals(
                          ok(RolloutIT.call(port, "GET", "/rollouts/" + id, null), 200)
                              .getJsonArray("waves")
                              .getJsonObject(0)
                              .getString("state")));
      assertThat(clock.instant()).as("the clock has not reached the window yet").isBefore(opens);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterApproved'",
                  id))
          .isZero();
      // each held cluster says why: zone a waits for its window, zone b for the end of its freeze
      for (Object item :
          ok(RolloutIT.call(port, "GET", "/rollouts/" + id + "/clusters", null), 200)
              .getJsonArray("items")) {
        JsonObject c = (JsonObject) item;
        String expected =
            c.getString("name").startsWith("za-")
                ? "OutsideWindow (window zone-a opens " + opens + ")"
                : "Frozen (freeze zone-b until " + thaws + ")";
        assertThat(c.getString("state")).isEqualTo("Pending");
        assertThat(c.getString("message")).as(c.encode()).isEqualTo(expected);
        assertThat(c.getJsonObject("reason").getString("code"))
            .isEqualTo(expected.substring(0, expected.indexOf(' ')));
      }

      // the engine's replica goes away while the wave waits; the other one takes the lock and
      // carries on
      a.close();
      await().atMost(Duration.ofSeconds(10)).until(() -> follower.rollouts().engine().leader());
      assertThat(clock.instant()).isBefore(opens);
      assertThat(
              ok(RolloutIT.call(port, "GET", "/rollouts/" + id, null), 200)
                  .getJsonArray("waves")
                  .getJsonObject(0)
                  .getString("state"))
          .as("the wave still waits for its window")
          .isEqualTo("WaitingForWindow");

      // the window opens: zone a upgrades, then zone b's wave waits for the end of its freeze
      clock.jumpTo(opens);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  "WaitingForWindow"
                      .equals(
                          ok(RolloutIT.call(port, "GET", "/rollouts/" + id, null), 200)
                              .getJsonArray("waves")
                              .getJsonObject(1)
                              .getString("state")));
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND cluster LIKE 'za-%' AND "
                      + "approved_at IS NOT NULL",
                  id))
          .as("zone a upgraded in its window")
          .isEqualTo(2);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_clusters WHERE rollout_id = ? AND cluster LIKE 'zb-%' AND "
                      + "approved_at IS NOT NULL",
                  id))
          .as("the freeze holds zone b")
          .isZero();

      // the freeze ends
      clock.jumpTo(thaws);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  "Succeeded"
                      .equals(
                          ok(RolloutIT.call(port, "GET", "/rollouts/" + id, null), 200)
                              .getString("state")));
      assertThat(approvedAt(fx, id, "za-")).isAfterOrEqualTo(opens);
      assertThat(approvedAt(fx, id, "zb-")).as("the freeze held zone b").isAfterOrEqualTo(thaws);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = 'ClusterApproved'",
                  id))
          .as("each cluster approved once")
          .isEqualTo(4);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM rollout_history WHERE rollout_id = ? AND kind = "
                      + "'WaveWaitingForWindow'",
                  id))
          .as("both waves waited")
          .isEqualTo(2);
      assertThat(
              fx.count(
                  "SELECT count(*) FROM subscription_status WHERE subscription = 'win' AND "
                      + "installed_version = '0.9.4' AND phase = 'Succeeded'"))
          .isEqualTo(4);
      assertThat(clock.instant()).isAfterOrEqualTo(thaws);
    } finally {
      if (zoneA != null) {
        zoneA.close();
      }
      if (zoneB != null) {
        zoneB.close();
      }
      if (b != null) {
        b.close();
      }
      a.close();
      vertx.close();
    }
  }
}
