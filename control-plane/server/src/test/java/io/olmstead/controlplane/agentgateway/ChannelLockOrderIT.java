package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A status batch and a desired-state update touching the same clusters' agent_channel_state rows,
 * forced into the interleaving that deadlocked when each locked rows in its own order: both
 * complete, neither is a deadlock victim.
 */
class ChannelLockOrderIT {
  private static final List<String> A = List.of("a-0", "a-1", "a-2");
  private static final List<String> B = List.of("b-0", "b-1", "b-2");

  @Test
  void aStatusBatchAndADesiredUpdateOnTheSameClustersNeverDeadlock() throws Exception {
    DatabaseSettings db = TestDatabase.create(ChannelLockOrderIT.class);
    Migrations.migrate(db);
    List<String> physical = new ArrayList<>(B); // B rows first on disk, then A
    physical.addAll(A);
    for (String cluster : physical) {
      TestDatabase.execute(db, "INSERT INTO clusters (name) VALUES ('" + cluster + "')");
      TestDatabase.execute(
          db, "INSERT INTO agent_channel_state (cluster) VALUES ('" + cluster + "')");
    }
    Vertx vertx = Vertx.vertx();
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(4))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    try (Connection blocker = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
      blocker.setAutoCommit(false);
      blocker
          .createStatement()
          .execute("SELECT 1 FROM agent_channel_state WHERE cluster = 'b-2' FOR UPDATE");
      // the desired-state update goes first and waits on b-2, holding what it locked before it
      Future<?> generations =
          new ChannelStateStore(pool, Clock.systemUTC())
              .generations(physical, physical.stream().map(c -> "h").toList());
      await().atMost(Duration.ofSeconds(10)).until(() -> waitingOnLocks(db) == 1);
      // then a batch: status reports for A, acks for B
      List<StatusBatchWriter.Report> reports =
          A.stream()
              .map(
                  c -> new StatusBatchWriter.Report(c, new Status(1, null, c, 5, false, List.of())))
              .toList();
      List<StatusBatchWriter.AckRow> acks =
          B.stream().map(c -> new StatusBatchWriter.AckRow(c, 1)).toList();
      Future<?> batch = new StatusBatchWriter(pool, Clock.systemUTC()).write(reports, acks);
      await().atMost(Duration.ofSeconds(10)).until(() -> waitingOnLocks(db) == 2);
      blocker.commit();
      Throwable genFailure = outcome(generations);
      Throwable batchFailure = outcome(batch);
      assertThat(genFailure).as("desired-state update").isNull();
      assertThat(batchFailure).as("status batch").isNull();
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private static Throwable outcome(Future<?> future) throws Exception {
    return future
        .toCompletionStage()
        .toCompletableFuture()
        .handle((v, e) -> e)
        .get(20, TimeUnit.SECONDS);
  }

  private static int waitingOnLocks(DatabaseSettings db) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                        + "current_database() AND wait_event_type = 'Lock'")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
