package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one LISTEN connection: every subscriber of a channel hears it, each resyncs when its channel
 * is listened to.
 */
class NotificationsIT {
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;

  @BeforeAll
  static void setUp() {
    db = TestDatabase.create(NotificationsIT.class);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
  }

  @AfterAll
  static void tearDown() {
    pool.close();
    vertx.close();
  }

  @Test
  void everySubscriberOfAChannelHearsItOnOneConnectionAndResyncsWhenListening() throws Exception {
    Notifications notifications = new Notifications(vertx, db.connectOptions(), pool);
    List<String> first = new CopyOnWriteArrayList<>();
    List<String> second = new CopyOnWriteArrayList<>();
    List<String> other = new CopyOnWriteArrayList<>();
    AtomicInteger resyncs = new AtomicInteger();
    notifications.subscribe("test_channel_a", first::add, resyncs::incrementAndGet);
    notifications.subscribe("test_channel_a", second::add);
    notifications.subscribe("test_channel_b", other::add);
    notifications.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> resyncs.get() == 1);
      pool.preparedQuery("SELECT pg_notify($1, $2)")
          .execute(Tuple.of("test_channel_a", "one"))
          .toCompletionStage()
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> first.contains("one") && second.contains("one"));
      assertThat(other).isEmpty();
      assertThat(
              pool.query(
                      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                          + "AND query LIKE 'LISTEN %'")
                  .execute()
                  .toCompletionStage()
                  .toCompletableFuture()
                  .get(30, TimeUnit.SECONDS)
                  .iterator()
                  .next()
                  .getLong(0))
          .as("one LISTEN connection for both channels")
          .isEqualTo(1);
      assertThatThrownBy(() -> notifications.subscribe("test_channel_c", payload -> {}))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("test_channel_c");
    } finally {
      notifications.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aConnectionEndedUnderItIsReplacedAndItsSubscribersResync() throws Exception {
    Notifications notifications = new Notifications(vertx, db.connectOptions(), pool);
    List<String> heard = new CopyOnWriteArrayList<>();
    AtomicInteger resyncs = new AtomicInteger();
    notifications.subscribe("test_channel_d", heard::add, resyncs::incrementAndGet);
    notifications.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> resyncs.get() == 1);
      pool.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                  + "AND query LIKE 'LISTEN %'")
          .execute()
          .toCompletionStage()
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);

      await().atMost(Duration.ofSeconds(60)).until(() -> resyncs.get() >= 2);
      pool.preparedQuery("SELECT pg_notify($1, $2)")
          .execute(Tuple.of("test_channel_d", "after"))
          .toCompletionStage()
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(30)).until(() -> heard.contains("after"));
    } finally {
      notifications.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void aPingThatWaitsForABusyPoolIsNotTakenForADeadConnection() throws Exception {
    // one pooled connection, held by a 2 s query: every ping in that time waits for it, at 100 ms a
    // ping
    Pool busy =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(1))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    Notifications notifications =
        new Notifications(vertx, db.connectOptions(), busy, 100, System::nanoTime);
    List<String> heard = new CopyOnWriteArrayList<>();
    AtomicInteger resyncs = new AtomicInteger();
    notifications.subscribe("test_channel_e", heard::add, resyncs::incrementAndGet);
    notifications.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> resyncs.get() == 1);
      busy.query("SELECT pg_sleep(2)")
          .execute()
          .toCompletionStage()
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      busy.preparedQuery("SELECT pg_notify($1, $2)")
          .execute(Tuple.of("test_channel_e", "after the busy pool"))
          .toCompletionStage()
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);

      await().atMost(Duration.ofSeconds(30)).until(() -> heard.contains("after the busy pool"));
      assertThat(resyncs.get()).as("the LISTEN connection kept, no resync").isEqualTo(1);
    } finally {
      notifications.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      busy.close();
    }
  }
}
