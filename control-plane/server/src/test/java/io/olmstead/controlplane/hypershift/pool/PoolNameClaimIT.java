package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.PoolSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A pool replica's name belongs to its live connection: a second connection claiming it (a copy of
 * the pod with the same name, a stolen pool token) is refused with {@code 4409} and takes none of
 * its clusters, and gets the name once the holder's connection has closed or its row is no longer
 * kept alive.
 */
class PoolNameClaimIT {
  private static DatabaseSettings db;
  private static TestControlPlane cp;
  private static String token;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(PoolNameClaimIT.class);
    // rounds every 60 s: only a hello runs one during the test
    cp = TestControlPlane.start(db, Map.of(PoolSettings.ASSIGN_SECONDS, "60"));
    token = PoolFixtures.poolToken(cp);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void aSecondConnectionClaimingTheNameOfALiveOneIsRefusedAndTheHolderKeepsIt() throws Exception {
    try (RawPoolReplica holder = RawPoolReplica.connect(cp, token, "pool-held")) {
      holder.awaitReceived("welcome", 1);
      String session = session("pool-held");

      try (RawPoolReplica claimant = RawPoolReplica.connect(cp, token, "pool-held")) {
        claimant.awaitReceived("is held by a live connection", 1);

        assertThat(claimant.received()).doesNotContain("welcome");
        await().atMost(Duration.ofSeconds(30)).until(() -> !claimant.stillOpen());
      }
      assertThat(session("pool-held")).as("the row's connection").isEqualTo(session);
      // a round (another replica's hello) keeps the holder alive rather than closing it as replaced
      try (RawPoolReplica other = RawPoolReplica.connect(cp, token, "pool-other")) {
        other.awaitReceived("heartbeat", 1);
        holder.awaitReceived("heartbeat", 2);
        assertThat(holder.stillOpen()).isTrue();
        assertThat(holder.received()).doesNotContain("took over");
      }
    }
  }

  @Test
  void aConnectionGetsTheNameOnceTheHoldersConnectionHasClosed() throws Exception {
    try (RawPoolReplica holder = RawPoolReplica.connect(cp, token, "pool-closed")) {
      holder.awaitReceived("welcome", 1);
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> session("pool-closed") == null);

    try (RawPoolReplica next = RawPoolReplica.connect(cp, token, "pool-closed")) {
      next.awaitReceived("welcome", 1);
      assertThat(next.stillOpen()).isTrue();
    }
  }

  @Test
  void aConnectionGetsTheNameOfARowNoLongerKeptAlive() throws Exception {
    // the holder's control plane replica was killed: its row stays, and nobody refreshes it
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO pool_members (member, token_id, replica, "
                    + "session, last_seen) SELECT 'pool-orphan', id, 'dead-replica', 'old-session', now() - interval '181 "
                    + "seconds' FROM pool_tokens LIMIT 1")) {
      assertThat(insert.executeUpdate()).isEqualTo(1);
    }

    try (RawPoolReplica next = RawPoolReplica.connect(cp, token, "pool-orphan")) {
      next.awaitReceived("welcome", 1);
      assertThat(session("pool-orphan")).isNotEqualTo("old-session");
    }
  }

  @Test
  void aConnectionClosedWhileItsJoinWaitedLeavesNoRowAndTheNameIsFreeAtOnce() throws Exception {
    // statements that remove a pool replica's row by its connection are logged, even when they
    // find no row
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE TABLE leave_log (query text); "
              + "CREATE FUNCTION log_leave() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
              + "IF current_query() LIKE 'DELETE FROM pool_members WHERE member = $1 AND session%' "
              + "THEN INSERT INTO leave_log VALUES (current_query()); END IF; RETURN NULL; END $$; "
              + "CREATE TRIGGER log_leave AFTER DELETE ON pool_members FOR EACH STATEMENT "
              + "EXECUTE FUNCTION log_leave()");
    }
    try (Connection lock = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement st = lock.createStatement()) {
      lock.setAutoCommit(false);
      // the join's check of its pool token waits on this lock
      st.execute("SELECT 1 FROM pool_tokens FOR UPDATE");
      try (RawPoolReplica holder = RawPoolReplica.connect(cp, token, "pool-late")) {
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    count(
                            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                + "AND query LIKE 'INSERT INTO pool_members%'")
                        == 1);
      }
      // the connection's close removed nothing: its join has not landed yet
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> count("SELECT count(*) FROM leave_log") >= 1);
      lock.commit();
    }
    // the join lands after the close, and its connection is gone: no row is left for it
    await().atMost(Duration.ofSeconds(20)).until(() -> session("pool-late") == null);
    try (RawPoolReplica next = RawPoolReplica.connect(cp, token, "pool-late")) {
      next.awaitReceived("welcome", 1);
      assertThat(next.received()).doesNotContain("is held by a live connection");
    }
  }

  private static long count(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static String session(String member) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        PreparedStatement s =
            c.prepareStatement("SELECT session FROM pool_members WHERE member = ?")) {
      s.setString(1, member);
      try (ResultSet rows = s.executeQuery()) {
        return rows.next() ? rows.getString(1) : null;
      }
    }
  }
}
