package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A pool kept busy is not a database that does not answer: the watch asks on a connection of its
 * own, so a replica whose every pooled connection runs a slow statement for longer than the
 * unreachable bound keeps its agents.
 */
class DatabaseWatchIT {
  private static Vertx vertx;
  private static DatabasePool database;

  @BeforeAll
  static void start() {
    DatabaseSettings db = TestDatabase.create(DatabaseWatchIT.class);
    vertx = Vertx.vertx();
    // one pooled connection, unreachable after 1 s, statements may run 30 s
    database =
        DatabasePool.create(vertx, db, new DatabaseHealthSettings(30, 45, 5, 1), 1, "watch-it", 15);
  }

  @AfterAll
  static void stop() {
    database.watch().stop();
    database.close();
    vertx.close();
  }

  @Test
  void aPoolBusyForLongerThanTheUnreachableBoundIsNotAnUnreachableDatabase() throws Exception {
    List<Boolean> changes = new CopyOnWriteArrayList<>();
    database.watch().onChange(changes::add);
    database.watch().start();
    // the pool's only connection is taken for 5 s: five probes and more than three unreachable
    // bounds (1 s + the
    // probe's own 2 s bound) pass while it is busy
    database
        .pool()
        .query("SELECT pg_sleep(5)")
        .execute()
        .toCompletionStage()
        .toCompletableFuture()
        .get(30, TimeUnit.SECONDS);
    assertThat(changes).as("never told the database went away").isEmpty();
    assertThat(database.watch().unhealthyReason()).isNull();
  }
}
