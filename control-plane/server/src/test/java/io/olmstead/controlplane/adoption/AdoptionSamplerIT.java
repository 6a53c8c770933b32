package io.olmstead.controlplane.adoption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.LeaderLock;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The adoption sampler on a real database with a clock the test moves: a snapshot only when counts
 * change or a day passed, and the retention deletes old rows in bounded batches while the snapshot
 * in effect stays.
 */
class AdoptionSamplerIT {
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;
  private static RolloutFixtures fx;
  private static final AtomicReference<Instant> NOW =
      new AtomicReference<>(Instant.parse("2026-01-10T12:00:30Z"));

  @BeforeAll
  static void start() {
    db = TestDatabase.create(AdoptionSamplerIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().connectingTo(db.connectOptions()).using(vertx).build();
    fx = new RolloutFixtures(db);
    fx.catalog();
  }

  @AfterAll
  static void stop() {
    pool.close();
    vertx.close();
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @Test
  void writesASnapshotOnlyWhenCountsChangeOrADayPassed() throws Exception {
    fx.subscription("sampled", "fleet=s", "0.9.2");
    TestDatabase.execute(
        db,
        "INSERT INTO subscription_status (subscription, cluster, installed_version, phase, seq) "
            + "VALUES ('sampled', 's-1', '0.9.2', 'Succeeded', 1), ('sampled', 's-2', '0.9.2', 'Succeeded', 1), "
            + "('sampled', 's-3', NULL, 'Installing', 1)");
    AdoptionSampler sampler = new AdoptionSampler(vertx, pool, db.connectOptions(), NOW::get);
    assertThat(await(sampler.sampleNow())).isEqualTo(1);
    assertThat(
            fx.count("SELECT count(*) FROM subscription_adoption WHERE subscription = 'sampled'"))
        .isEqualTo(2);
    assertThat(
            fx.count(
                "SELECT clusters FROM subscription_adoption WHERE subscription = 'sampled' "
                    + "AND version = 'none'"))
        .isEqualTo(1);

    NOW.set(NOW.get().plus(Duration.ofMinutes(5)));
    assertThat(await(sampler.sampleNow())).as("nothing changed").isZero();

    TestDatabase.execute(
        db, "UPDATE subscription_status SET installed_version = '0.9.4' WHERE cluster = 's-1'");
    NOW.set(NOW.get().plus(Duration.ofMinutes(1)));
    assertThat(await(sampler.sampleNow())).isEqualTo(1);
    assertThat(
            fx.count(
                "SELECT count(DISTINCT at) FROM subscription_adoption WHERE subscription = 'sampled'"))
        .isEqualTo(2);

    NOW.set(NOW.get().plus(Duration.ofHours(23)));
    assertThat(await(sampler.sampleNow())).as("unchanged for 23 hours").isZero();
    NOW.set(NOW.get().plus(Duration.ofHours(1)));
    assertThat(await(sampler.sampleNow()))
        .as("a day since the last snapshot: written again")
        .isEqualTo(1);
  }

  @Test
  void aSamplerDeposedWithoutItsKnowingWritesNothingAndStepsDown() throws Exception {
    fx.subscription("fenced", "fleet=f", "0.9.2");
    TestDatabase.execute(
        db,
        "INSERT INTO subscription_status (subscription, cluster, installed_version, phase, seq) "
            + "VALUES ('fenced', 'f-1', '0.9.2', 'Succeeded', 1)");
    AdoptionSampler sampler = new AdoptionSampler(vertx, pool, db.connectOptions(), NOW::get);
    try {
      assertThat(await(sampler.lead())).isTrue();
      // another replica took the lock (this one's session ended on the database side, unbeknown to
      // it): its bump
      TestDatabase.execute(
          db,
          "UPDATE leader_epochs SET epoch = epoch + 1 WHERE lock_key = "
              + AdoptionSampler.LOCK_KEY);

      assertThatThrownBy(() -> await(sampler.sampleAsLeader()))
          .hasCauseInstanceOf(LeaderLock.Deposed.class);
      assertThat(
              fx.count("SELECT count(*) FROM subscription_adoption WHERE subscription = 'fenced'"))
          .isZero();
      // stepped down: once its old session is gone the lock is free, and it takes it anew with a
      // new epoch
      Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> await(sampler.lead()));
      assertThat(await(sampler.sampleAsLeader())).as("with the new epoch it writes").isPositive();
      assertThat(
              fx.count("SELECT count(*) FROM subscription_adoption WHERE subscription = 'fenced'"))
          .isEqualTo(1);
    } finally {
      await(sampler.close());
      // the other cases count every subscription
      TestDatabase.execute(db, "DELETE FROM subscription_status WHERE subscription = 'fenced'");
      TestDatabase.execute(db, "DELETE FROM subscription_adoption WHERE subscription = 'fenced'");
      TestDatabase.execute(db, "DELETE FROM subscriptions WHERE name = 'fenced'");
    }
  }

  @Test
  void theRetentionDeletesOldRowsInBoundedBatches() throws Exception {
    Instant now = NOW.get();
    // 12 snapshots (one row each) older than the retention and 3 within it
    for (int i = 0; i < 15; i++) {
      Instant at =
          i < 12
              ? now.minus(AdoptionSampler.RETENTION).minus(Duration.ofMinutes(i + 1))
              : now.minus(Duration.ofMinutes(i));
      TestDatabase.execute(
          db,
          "INSERT INTO subscription_adoption (subscription, team, at, version, clusters) VALUES "
              + "('pruned', NULL, '"
              + at.truncatedTo(ChronoUnit.MINUTES)
              + "', '0.9.2', 4)");
    }
    AdoptionSampler sampler = new AdoptionSampler(vertx, pool, db.connectOptions(), NOW::get);
    Instant before = now.minus(AdoptionSampler.RETENTION);
    assertThat(await(sampler.prune(before, 5, 1, 0))).as("one batch of 5").isEqualTo(5);
    assertThat(fx.count("SELECT count(*) FROM subscription_adoption WHERE subscription = 'pruned'"))
        .isEqualTo(10);
    assertThat(await(sampler.prune())).isEqualTo(7);
    assertThat(fx.count("SELECT count(*) FROM subscription_adoption WHERE subscription = 'pruned'"))
        .isEqualTo(3);
    assertThat(
            fx.count(
                "SELECT count(*) FROM subscription_adoption WHERE subscription = 'pruned' "
                    + "AND at < ?::timestamptz",
                before.toString()))
        .isZero();
  }
}
