package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A batch of status reports and acks writes each cluster's agent_channel_state row once (a trigger
 * of this test counts the row updates), and stores what the reports and acks say, an ack's time
 * read from the writer's clock.
 */
class StatusBatchRowWritesIT {
  // years away from the database's now(): a stamp from now() could not match it
  private static final Instant ACKED_AT = Instant.parse("2031-01-02T03:04:05.123456Z");
  private DatabaseSettings db;
  private Vertx vertx;
  private Pool pool;

  @BeforeEach
  void setUp() {
    db = TestDatabase.create(StatusBatchRowWritesIT.class);
    Migrations.migrate(db);
    for (String cluster : List.of("reported", "both", "acked")) {
      TestDatabase.execute(db, "INSERT INTO clusters (name) VALUES ('" + cluster + "')");
      TestDatabase.execute(
          db,
          "INSERT INTO agent_channel_state (cluster, last_status_seq, acked_generation) "
              + "VALUES ('"
              + cluster
              + "', 10, 3)");
    }
    TestDatabase.execute(db, "CREATE TABLE row_writes (cluster text)");
    TestDatabase.execute(
        db,
        "CREATE FUNCTION count_row_write() RETURNS trigger LANGUAGE plpgsql AS "
            + "$$ BEGIN INSERT INTO row_writes VALUES (NEW.cluster); RETURN NEW; END $$");
    TestDatabase.execute(
        db,
        "CREATE TRIGGER count_row_write AFTER UPDATE ON agent_channel_state "
            + "FOR EACH ROW EXECUTE FUNCTION count_row_write()");
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
  }

  @AfterEach
  void tearDown() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aBatchOfReportsAndAcksWritesEachClusterRowOnceWithTheNewestSeqAndGeneration()
      throws Exception {
    List<StatusBatchWriter.Report> reports = new ArrayList<>();
    for (String cluster : List.of("reported", "both")) {
      reports.add(report(cluster, 12));
      reports.add(report(cluster, 11));
      reports.add(report(cluster, 9)); // a replay below the stored seq lowers nothing
    }
    List<StatusBatchWriter.AckRow> acks =
        List.of(
            new StatusBatchWriter.AckRow("both", 5),
            new StatusBatchWriter.AckRow("both", 4),
            new StatusBatchWriter.AckRow("acked", 2), // older than the stored 3: kept at 3
            new StatusBatchWriter.AckRow("acked", 1));

    new StatusBatchWriter(pool, Clock.fixed(ACKED_AT, ZoneOffset.UTC))
        .write(reports, acks)
        .toCompletionStage()
        .toCompletableFuture()
        .get(20, TimeUnit.SECONDS);

    assertThat(rows("SELECT cluster, count(*) FROM row_writes GROUP BY cluster"))
        .isEqualTo(Map.of("acked", "1", "both", "1", "reported", "1"));
    assertThat(
            rows(
                "SELECT cluster, last_status_seq || ' ' || acked_generation || ' ' "
                    + "|| coalesce(acked_at = '"
                    + ACKED_AT
                    + "'::timestamptz, false) FROM agent_channel_state"))
        .isEqualTo(Map.of("reported", "12 3 false", "both", "12 5 true", "acked", "10 3 true"));
  }

  private static StatusBatchWriter.Report report(String cluster, long seq) {
    return new StatusBatchWriter.Report(
        cluster, new Status(1, null, cluster, seq, false, List.of()));
  }

  private Map<String, String> rows(String sql) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    return out;
  }
}
