package io.olmstead.controlplane.hypershift;

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
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The HyperShift watcher's writes are fenced like the other leader writers': a watcher deposed
 * without its knowing (another replica bumped the lock's epoch; its own session ended on the
 * database side unbeknown to it) retires nothing, steps down, and writes again only once it has
 * taken the lock anew.
 */
class HostedStoreFenceIT {
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;
  private static RolloutFixtures fx;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(HostedStoreFenceIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool = PgBuilder.pool().connectingTo(db.connectOptions()).using(vertx).build();
    fx = new RolloutFixtures(db);
  }

  @AfterAll
  static void stop() {
    pool.close();
    vertx.close();
  }

  @Test
  void aWatcherDeposedWithoutItsKnowingRetiresNothingAndStepsDown() throws Exception {
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name, labels, status) VALUES ('clusters-fenced', '{}', 'connected')");
    TestDatabase.execute(
        db,
        "INSERT INTO hosted_clusters (cluster_id, cluster_name, cluster, namespace, name) "
            + "VALUES ('id-fenced', 'clusters-fenced', 'clusters-fenced', 'clusters', 'fenced')");
    LeaderLock lock =
        new LeaderLock(
            vertx, db.connectOptions(), Hypershift.LOCK_KEY, "HyperShift watcher", leader -> {});
    HostedStore store = new HostedStore(pool, lock::fence);
    try {
      assertThat(await(lock.ensure())).isTrue();
      // another replica took the lock (this one's session ended on the database side, unbeknown to
      // it): its bump
      TestDatabase.execute(
          db, "UPDATE leader_epochs SET epoch = epoch + 1 WHERE lock_key = " + Hypershift.LOCK_KEY);

      assertThatThrownBy(() -> await(store.gone("id-fenced")))
          .hasCauseInstanceOf(LeaderLock.Deposed.class);
      assertThat(status()).as("the deposed watcher retired nothing").isEqualTo(1);
      // stepped down: once its old session is gone the lock is free, and it takes it anew with a
      // new epoch
      Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> await(lock.ensure()));
      assertThat(await(store.gone("id-fenced")).kind()).isEqualTo(Decision.Kind.RETIRE);
      assertThat(status()).as("with the new epoch it retires").isZero();
    } finally {
      await(lock.release());
    }
  }

  private static long status() {
    return fx.count(
        "SELECT count(*) FROM clusters WHERE name = 'clusters-fenced' AND status <> 'retired'");
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
