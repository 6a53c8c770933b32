package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Enrollment-token uses taken concurrently, straight on the database: never more than max_uses, a
 * slot raced for is looked for again, and a revocation committed meanwhile refuses the use.
 */
class TokenUsesIT {
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(TokenUsesIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(20))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void fifteenConcurrentUsesOfATokenLimitedToTenTakeExactlyTenSlots() throws Exception {
    String token = token(10);
    List<Future<Boolean>> uses =
        IntStream.range(0, 15)
            .mapToObj(i -> pool.withTransaction(tx -> TokenUses.take(tx, token, "c-" + i)))
            .toList();
    Future.join(uses).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    assertThat(uses).filteredOn(Future::result).hasSize(10);
    assertThat(
            count(
                "SELECT count(DISTINCT slot) FROM enrollment_token_uses WHERE token_id = '"
                    + token
                    + "' AND slot BETWEEN 1 AND 10"))
        .isEqualTo(10);
    assertThat(take(token, "late")).isFalse();
  }

  @Test
  void aUseRacingForTheLastSlotLooksAgainAndIsRefusedOnlyWhenTheOtherCommits() throws Exception {
    String token = token(1);
    try (Connection other = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
      other.setAutoCommit(false);
      other
          .createStatement()
          .execute(
              "INSERT INTO enrollment_token_uses (token_id, slot, cluster) VALUES ('"
                  + token
                  + "', 1, 'first')");
      Future<Boolean> second = pool.withTransaction(tx -> TokenUses.take(tx, token, "second"));
      await().atMost(Duration.ofSeconds(20)).until(() -> waitingOnLocks() == 1);
      other.rollback(); // the first enrollment failed: its slot is free again
      assertThat(result(second)).isTrue();
    }
    String full = token(1);
    try (Connection other = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
      other.setAutoCommit(false);
      other
          .createStatement()
          .execute(
              "INSERT INTO enrollment_token_uses (token_id, slot, cluster) VALUES ('"
                  + full
                  + "', 1, 'first')");
      Future<Boolean> second = pool.withTransaction(tx -> TokenUses.take(tx, full, "second"));
      await().atMost(Duration.ofSeconds(20)).until(() -> waitingOnLocks() == 1);
      other.commit();
      assertThat(result(second)).isFalse();
    }
  }

  @Test
  void aRevocationCommittedWhileAUseIsTakenRefusesIt() throws Exception {
    String token = token(5);
    try (Connection admin = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
      admin.setAutoCommit(false);
      admin
          .createStatement()
          .execute("UPDATE enrollment_tokens SET revoked_at = now() WHERE id = '" + token + "'");
      Future<Boolean> use = pool.withTransaction(tx -> TokenUses.take(tx, token, "during"));
      await().atMost(Duration.ofSeconds(20)).until(() -> waitingOnLocks() == 1);
      admin.commit();
      assertThat(result(use)).isFalse();
    }
  }

  private static boolean take(String token, String cluster) throws Exception {
    return result(pool.withTransaction(tx -> TokenUses.take(tx, token, cluster)));
  }

  private static boolean result(Future<Boolean> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static String token(int maxUses) {
    String id = UUID.randomUUID().toString();
    TestDatabase.execute(
        db,
        "INSERT INTO enrollment_tokens (id, token_hash, max_uses, expires_at, created_by) VALUES ('"
            + id
            + "', decode(md5('"
            + id
            + "'), 'hex'), "
            + maxUses
            + ", now() + interval '1 hour', 'test')");
    return id;
  }

  private static long count(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
        ResultSet rs = c.createStatement().executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long waitingOnLocks() throws Exception {
    return count(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            + "AND wait_event_type = 'Lock'");
  }
}
