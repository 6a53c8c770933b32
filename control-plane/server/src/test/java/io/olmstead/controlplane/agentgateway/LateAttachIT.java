package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Facts;
import io.olmstead.apispec.protocol.Hello;
import io.olmstead.apispec.protocol.Welcome;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A session closed for want of a handshake while its attach waits on the database: when the attach
 * lands after the close, the cluster must not stay {@code connected} with no session.
 */
class LateAttachIT {
  @Test
  void anAttachStoredAfterItsSessionClosedLeavesTheClusterDisconnected() throws Exception {
    DatabaseSettings db = TestDatabase.create(LateAttachIT.class);
    Vertx agentVertx = Vertx.vertx();
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(GatewaySettings.HELLO_TIMEOUT_SECONDS, "1"))) {
      ChannelFixtures fixtures = new ChannelFixtures(db);
      String token = fixtures.enrollmentToken(5, 600, "{}", null);
      String credential = Enroll.credential(cp.baseUrl(), token, "late");
      try (Connection lock = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
          Statement st = lock.createStatement()) {
        lock.setAutoCommit(false);
        // the attach's UPDATE of the cluster row waits on this lock past the 1 s hello timeout
        st.execute("SELECT 1 FROM clusters WHERE name = 'late' FOR UPDATE");
        try (RawAgent agent = RawAgent.connect(agentVertx, cp.port(), credential)) {
          agent.sendMessage(
              new Hello(
                  1, null, "test", List.of(1), new Facts("v1.30.0", null, 1, "hollow"), null));
          assertThat(agent.awaitClose()).isEqualTo(CloseReason.TRY_AGAIN_LATER.code());
        }
        lock.commit();
      }
      // the attach is now stored (a session row for the closed session) ...
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  !fixtures
                      .query("SELECT 1 FROM agent_channel_state WHERE cluster = 'late'")
                      .isEmpty());
      // ... and the cluster is disconnected, as its session is gone
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> "disconnected".equals(fixtures.clusterStatus("late")));
    } finally {
      agentVertx.close();
    }
  }

  @Test
  void anOlderSessionsLateAttachNeverReplacesANewerSession() throws Exception {
    DatabaseSettings db = TestDatabase.create(LateAttachIT.class);
    Vertx agentVertx = Vertx.vertx();
    try (TestControlPlane cp =
        TestControlPlane.start(db, Map.of(GatewaySettings.HELLO_TIMEOUT_SECONDS, "2"))) {
      ChannelFixtures fixtures = new ChannelFixtures(db);
      String token = fixtures.enrollmentToken(5, 600, "{}", null);
      String credential = Enroll.credential(cp.baseUrl(), token, "newer");
      // the cluster's first attach (session A) waits before it touches the session row, on an
      // advisory lock this test holds; every attach logs its session once it went on
      TestDatabase.execute(
          db,
          "CREATE SEQUENCE attach_order; CREATE TABLE attach_log (n bigint, session text); "
              + "CREATE FUNCTION hold_first_attach() RETURNS trigger LANGUAGE plpgsql AS $$ "
              + "DECLARE n bigint := nextval('attach_order'); BEGIN "
              + "IF n = 1 THEN PERFORM pg_advisory_xact_lock_shared(61); END IF; "
              + "INSERT INTO attach_log VALUES (n, NEW.session); RETURN NEW; END $$; "
              + "CREATE TRIGGER hold_first_attach BEFORE INSERT ON agent_channel_state FOR EACH ROW "
              + "WHEN (NEW.cluster = 'newer') EXECUTE FUNCTION hold_first_attach()");
      String newer;
      try (Connection lock = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
          Statement st = lock.createStatement()) {
        lock.setAutoCommit(false);
        st.execute("SELECT pg_advisory_xact_lock(61)");
        try (RawAgent a = RawAgent.connect(agentVertx, cp.port(), credential)) {
          a.sendMessage(hello());
          await()
              .atMost(Duration.ofSeconds(20))
              .until(
                  () ->
                      !fixtures
                          .query(
                              "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                          .isEmpty());
          // A closes for want of a welcome while its attach waits
          assertThat(a.awaitClose()).isEqualTo(CloseReason.TRY_AGAIN_LATER.code());
        }
        // the agent reconnects (session B), which attaches at once
        RawAgent b = RawAgent.connect(agentVertx, cp.port(), credential);
        b.sendMessage(hello());
        b.next(Welcome.class);
        newer = session(fixtures);
        lock.commit();
        // A's attach lands after B's
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> !fixtures.query("SELECT 1 FROM attach_log WHERE n = 1").isEmpty());
        assertThat(session(fixtures)).as("the row's session").isEqualTo(newer);
        assertThat(fixtures.clusterStatus("newer")).isEqualTo("connected");
        b.close();
      }
      // B's close finds its own row: the cluster is disconnected
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> "disconnected".equals(fixtures.clusterStatus("newer")));
    } finally {
      agentVertx.close();
    }
  }

  private static Hello hello() {
    return new Hello(1, null, "test", List.of(1), new Facts("v1.30.0", null, 1, "hollow"), null);
  }

  private static String session(ChannelFixtures fixtures) {
    return String.valueOf(
        fixtures
            .query("SELECT session FROM agent_channel_state WHERE cluster = 'newer'")
            .get(0)
            .get("session"));
  }
}
