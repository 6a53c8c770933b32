package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TcpBalancer;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A leader whose lock session ended without its knowing (its path to the database is half-open: a
 * frozen TCP proxy) while another replica took the lock: its leader-only writes change no row, and
 * it steps down.
 */
class LeaderLockIT {
  private static Vertx vertx;
  private static DatabaseSettings db;
  private static Pool pool;
  private static Context context;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(LeaderLockIT.class);
    Migrations.migrate(db);
    TestDatabase.execute(db, "CREATE TABLE marker (id int PRIMARY KEY, owner text)");
    TestDatabase.execute(db, "INSERT INTO marker VALUES (1, 'nobody')");
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
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
  void aLeaderDeposedWithoutItsKnowingWritesNothingAndStepsDown() throws Exception {
    long key = 101;
    TcpBalancer path = TcpBalancer.start(vertx);
    path.addBackend(db.port());
    List<Boolean> first = new CopyOnWriteArrayList<>();
    LeaderLock old =
        new LeaderLock(vertx, db.connectOptions().setPort(path.port()), key, "test", first::add);
    LeaderLock next = new LeaderLock(vertx, db.connectOptions(), key, "test", held -> {});
    assertThat(on(old::ensure)).isTrue();
    assertThat(value(old::epoch)).isEqualTo(1);
    assertThat(on(next::ensure)).as("the lock is held").isFalse();

    // the database ends the leader's session; the frozen path tells the leader nothing
    path.freeze();
    TestDatabase.execute(
        db,
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            + "AND objid = "
            + key);
    await().atMost(Duration.ofSeconds(30)).until(() -> on(next::ensure));
    assertThat(value(next::epoch)).isEqualTo(2);
    assertThat(first).as("not told yet").containsExactly(true);

    Future<Void> write =
        started(
            () ->
                pool.withTransaction(
                    tx ->
                        old.fence(tx)
                            .compose(
                                v -> tx.query("UPDATE marker SET owner = 'old leader'").execute())
                            .mapEmpty()));
    assertThatThrownBy(() -> get(write)).hasCauseInstanceOf(LeaderLock.Deposed.class);
    assertThat(owner()).isEqualTo("nobody");
    assertThat(first).as("stepped down").containsExactly(true, false);

    Future<Void> nextWrite =
        started(
            () ->
                pool.withTransaction(
                    tx ->
                        next.fence(tx)
                            .compose(
                                v -> tx.query("UPDATE marker SET owner = 'new leader'").execute())
                            .mapEmpty()));
    get(nextWrite);
    assertThat(owner()).isEqualTo("new leader");
    on(next::release);
    path.close();
  }

  @Test
  void aLeaderWhoseLockSessionStopsAnsweringStepsDownAtTheNextCheck() throws Exception {
    TcpBalancer path = TcpBalancer.start(vertx);
    path.addBackend(db.port());
    List<Boolean> changes = new CopyOnWriteArrayList<>();
    LeaderLock lock =
        new LeaderLock(
            vertx, db.connectOptions().setPort(path.port()), 102, "test", changes::add, 300);
    assertThat(on(lock::ensure)).isTrue();
    path.freeze();
    assertThat(on(lock::ensure)).as("the check times out").isFalse();
    assertThat(changes).containsExactly(true, false);
    assertThat(value(lock::epoch)).isZero();
    path.close();
  }

  @Test
  void aStandbyTriesTheLockOnOneSessionRatherThanANewConnectionEachTime() throws Exception {
    LeaderLock holder = new LeaderLock(vertx, db.connectOptions(), 103, "test", held -> {});
    LeaderLock standby = new LeaderLock(vertx, db.connectOptions(), 103, "test", held -> {});
    assertThat(on(holder::ensure)).isTrue();
    List<Integer> before = sessions();
    assertThat(on(standby::ensure)).isFalse();
    List<Integer> kept = sessions();
    assertThat(kept).as("the standby keeps the session it tried with").hasSize(before.size() + 1);
    for (int i = 0; i < 5; i++) {
      assertThat(on(standby::ensure)).isFalse();
    }
    assertThat(sessions()).as("the same session for every attempt").isEqualTo(kept);
    on(holder::release);
    await().atMost(Duration.ofSeconds(30)).until(() -> on(standby::ensure));
    on(standby::release);
  }

  @Test
  void aLockSessionThatConnectsAfterTheBoundIsClosedRatherThanLeftOpen() throws Exception {
    // a path that reaches the database only a second after the client dialled, past the lock's 300
    // ms bound
    NetClient client = vertx.createNetClient();
    AtomicInteger opened = new AtomicInteger();
    AtomicInteger closed = new AtomicInteger();
    NetServer slow =
        vertx
            .createNetServer()
            .connectHandler(
                in -> {
                  in.pause();
                  vertx.setTimer(
                      1000,
                      id ->
                          client
                              .connect(db.port(), "127.0.0.1")
                              .onSuccess(
                                  out -> {
                                    opened.incrementAndGet();
                                    in.handler(out::write);
                                    out.handler(in::write);
                                    in.closeHandler(
                                        v -> {
                                          closed.incrementAndGet();
                                          out.close();
                                        });
                                    out.closeHandler(v -> in.close());
                                    in.resume();
                                  })
                              .onFailure(e -> in.close()));
                });
    get(slow.listen(0, "127.0.0.1"));
    LeaderLock lock =
        new LeaderLock(
            vertx, db.connectOptions().setPort(slow.actualPort()), 104, "test", held -> {}, 300);
    assertThatThrownBy(() -> on(lock::ensure))
        .as("no session within the bound")
        .hasMessageContaining("no answer");
    await().atMost(Duration.ofSeconds(30)).until(() -> opened.get() == 1);
    await("the late session is closed")
        .atMost(Duration.ofSeconds(30))
        .until(() -> closed.get() == 1);
    assertThat(value(lock::epoch)).isZero();
    get(slow.close());
  }

  private static List<Integer> sessions() throws Exception {
    return get(
        pool.query(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() ORDER BY pid")
            .execute()
            .map(
                rows -> {
                  List<Integer> pids = new ArrayList<>();
                  rows.forEach(r -> pids.add(r.getInteger(0)));
                  return pids;
                }));
  }

  /**
   * Runs {@code work} on the lock's event-loop context, as the components do, and waits for its
   * outcome.
   */
  private static <T> T on(Supplier<Future<T>> work) throws Exception {
    return get(started(work));
  }

  private static <T> Future<T> started(Supplier<Future<T>> work) {
    Promise<T> result = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(result));
    return result.future();
  }

  private static <T> T value(Supplier<T> read) throws Exception {
    return on(() -> Future.succeededFuture(read.get()));
  }

  private static String owner() throws Exception {
    return get(
        pool.query("SELECT owner FROM marker")
            .execute()
            .map(rows -> rows.iterator().next().getString(0)));
  }

  private static <T> T get(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
