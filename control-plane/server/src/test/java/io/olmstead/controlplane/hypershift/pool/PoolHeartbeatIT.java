package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The control plane's heartbeats to pool replicas run on a timer of their own: an assignment round
 * stuck (here on a table lock; in life, a round handing over hundreds of clusters one transaction
 * each) does not silence them, so the replicas do not take the control plane for dead and
 * reconnect.
 */
class PoolHeartbeatIT {

  @Test
  void heartbeatsKeepComingWhileAnAssignmentRoundIsStuck() throws Exception {
    DatabaseSettings db = TestDatabase.create(PoolHeartbeatIT.class);
    Vertx vertx = Vertx.vertx();
    // one client held for the whole test and closed at its end
    io.vertx.core.http.WebSocketClient client = vertx.createWebSocketClient();
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(PoolSettings.ASSIGN_SECONDS, "1"))) {
      String token = PoolFixtures.poolToken(cp);
      AtomicInteger welcomes = new AtomicInteger();
      AtomicInteger heartbeats = new AtomicInteger();
      WebSocket ws =
          client
              .connect(
                  new WebSocketConnectOptions()
                      .setAbsoluteURI(
                          cp.baseUrl().replaceFirst("^http", "ws") + "/api/v1/agent/pool")
                      .putHeader("Authorization", "Bearer " + token))
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
      java.util.concurrent.atomic.AtomicReference<String> closedWith =
          new java.util.concurrent.atomic.AtomicReference<>("");
      ws.closeHandler(v -> closedWith.set(ws.closeStatusCode() + " " + ws.closeReason()));
      ws.textMessageHandler(
          text -> {
            String type = new JsonObject(text).getString("type");
            if ("welcome".equals(type)) {
              welcomes.incrementAndGet();
            } else if ("heartbeat".equals(type)) {
              heartbeats.incrementAndGet();
            }
          });
      ws.writeTextMessage(
          new JsonObject()
              .put("type", "hello")
              .put("replica", "pool-0")
              .put("clusters", new io.vertx.core.json.JsonArray())
              .encode());
      // as a replica does: a silent connection is closed by the control plane
      vertx.setPeriodic(
          500,
          id -> {
            if (!ws.isClosed()) {
              ws.writeTextMessage("{\"type\":\"heartbeat\"}");
            }
          });
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(welcomes.get() == 1 && heartbeats.get() >= 1)
                      .as("welcomed and a heartbeat; closed: " + closedWith.get())
                      .isTrue());
      try (Connection lock = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
          Statement statement = lock.createStatement()) {
        lock.setAutoCommit(false);
        // only the round's snapshot reads pool_assignments: from now on every round waits for this
        // lock
        statement.execute("LOCK TABLE pool_assignments IN ACCESS EXCLUSIVE MODE");
        await().atMost(Duration.ofSeconds(30)).until(() -> roundsWaitingForTheLock(db) > 0);
        int before = heartbeats.get();
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(heartbeats.get() - before)
                        .as("heartbeats while rounds are stuck; closed: " + closedWith.get())
                        .isGreaterThanOrEqualTo(3));
        assertThat(roundsWaitingForTheLock(db)).as("the round is still stuck").isPositive();
        assertThat(closedWith.get()).as("closed").isEmpty();
        lock.rollback();
      }
      ws.close();
    } finally {
      client.close();
      vertx.close();
    }
  }

  /** Sessions of the control plane waiting for a lock on pool_assignments (a stuck round). */
  private static int roundsWaitingForTheLock(DatabaseSettings db) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement s = c.createStatement();
        ResultSet rows =
            s.executeQuery(
                "SELECT count(*) FROM pg_locks WHERE NOT granted "
                    + "AND relation = 'pool_assignments'::regclass")) {
      rows.next();
      return rows.getInt(1);
    }
  }
}
