package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replica's presence tick (every heard cluster marked connected, one statement) runs beside the
 * pool's handover batches, which lock their clusters in name order: the tick locks in name order
 * too, so they wait on each other and never deadlock. The rows are inserted in reverse name order,
 * so a statement that locks as it scans the table takes them in the opposite order to the handover
 * (what the pool bench saw: {@code deadlock detected} on presence updates while hundreds of
 * clusters were handed over).
 */
class PresenceLockOrderIT {
  private static final int CLUSTERS = 300;
  private static final int ROUNDS = 25;
  private static Vertx vertx;
  private static Pool pool;
  private static final List<String> names = new ArrayList<>();

  @BeforeAll
  static void start() {
    DatabaseSettings db = TestDatabase.create(PresenceLockOrderIT.class);
    Migrations.migrate(db);
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name) SELECT 'c-' || lpad(i::text, 4, '0') "
            + "FROM generate_series("
            + CLUSTERS
            + ", 1, -1) i");
    for (int i = 1; i <= CLUSTERS; i++) {
      names.add(String.format("c-%04d", i));
    }
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(4))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  @Test
  void presenceTicksBesideHandoversThatLockInNameOrderNeverDeadlock() throws Exception {
    ChannelStateStore store = new ChannelStateStore(pool, Clock.systemUTC());
    Future<Void> ticks = Future.succeededFuture();
    Future<Void> handovers = Future.succeededFuture();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int i = 0; i < ROUNDS; i++) {
      ticks =
          ticks.compose(
              v ->
                  store
                      .seen(names)
                      .recover(
                          e -> {
                            failures.add(e);
                            return Future.succeededFuture();
                          }));
      handovers =
          handovers.compose(
              v ->
                  pool.withTransaction(
                          tx ->
                              tx.preparedQuery(
                                      "SELECT name FROM clusters WHERE name = ANY($1) ORDER BY name FOR UPDATE")
                                  .execute(
                                      Tuple.tuple().addArrayOfString(names.toArray(String[]::new)))
                                  .compose(
                                      rows ->
                                          tx.preparedQuery(
                                                  "UPDATE clusters SET facts = facts || '{\"handed\":true}' "
                                                      + "WHERE name = ANY($1)")
                                              .execute(
                                                  Tuple.tuple()
                                                      .addArrayOfString(
                                                          names.toArray(String[]::new)))))
                      .<Void>mapEmpty()
                      .recover(
                          e -> {
                            failures.add(e);
                            return Future.succeededFuture();
                          }));
    }
    Future.all(ticks, handovers).toCompletionStage().toCompletableFuture().get(3, TimeUnit.MINUTES);

    assertThat(failures).as("statements that failed (deadlock detected)").isEmpty();
    assertThat(
            pool.query("SELECT count(*) FROM clusters WHERE status = 'connected'")
                .execute()
                .map(rows -> rows.iterator().next().getInteger(0))
                .toCompletionStage()
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS))
        .isEqualTo(CLUSTERS);
  }
}
