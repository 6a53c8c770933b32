package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.clusters.Cluster;
import io.olmstead.controlplane.clusters.ClusterStore;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Presence is a lease per replica: a presence tick renews one row of {@code gateway_replicas} and
 * writes no row of {@code clusters} for clusters already connected, so heartbeats cost the database
 * one row per replica, not one per cluster (6,667 row updates a second for 100,000 clusters
 * before). A replica whose lease lapses loses its clusters to any replica's sweep, at the lease's
 * time.
 */
class PresenceLeaseIT {
  private static final int WINDOW_SECONDS = 45;
  private static DatabaseSettings db;
  private static Vertx vertx;
  private static Pool pool;
  private static ChannelStateStore store;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(PresenceLeaseIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(4))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    store = new ChannelStateStore(pool, Clock.systemUTC());
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  @Test
  void ticksOfALiveReplicaRenewItsLeaseAndWriteNoClusterRow() throws Exception {
    List<String> names = connected("live-", 200, "r-live", "now()");
    String before = versions("live-");

    for (int i = 0; i < 5; i++) {
      get(
          store
              .renew("r-live")
              .compose(v -> store.seen(names))
              .compose(v -> store.sweep(WINDOW_SECONDS)));
    }

    assertThat(versions("live-")).as("row versions (xmin) of the clusters rows").isEqualTo(before);
    assertThat(
            count(
                "SELECT count(*) FROM clusters WHERE name LIKE 'live-%' AND status = 'connected'"))
        .isEqualTo(200);
    Row lease =
        get(pool.query(
                    "SELECT seen_at, now() - seen_at < interval '5 seconds' FROM gateway_replicas "
                        + "WHERE replica = 'r-live'")
                .execute())
            .iterator()
            .next();
    assertThat(lease.getBoolean(1)).as("lease renewed just now").isTrue();
    Cluster one = get(new ClusterStore().find(pool, names.get(0))).orElseThrow();
    assertThat(one.lastSeen())
        .as("a connected cluster's lastSeen is its replica's last renewal")
        .isEqualTo(lease.getOffsetDateTime(0));
  }

  @Test
  void clustersOfAReplicaWhoseLeaseLapsedAreMarkedDisconnectedAtTheLeaseTime() throws Exception {
    connected("lapsed-", 20, "r-lapsed", "now() - interval '10 minutes'");
    connected("fresh-", 20, "r-fresh", "now() - interval '10 minutes'");
    TestDatabase.execute(
        db,
        "INSERT INTO gateway_replicas (replica, seen_at) VALUES "
            + "('r-lapsed', now() - interval '2 minutes'), ('r-fresh', now())");
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name, status, last_seen) VALUES "
            + "('nolease-old', 'connected', now() - interval '2 minutes'), ('nolease-new', 'connected', now())");

    get(store.sweep(WINDOW_SECONDS));

    assertThat(statuses("lapsed-")).containsOnly("disconnected");
    assertThat(statuses("fresh-"))
        .as("an old last_seen does not matter while the lease is renewed")
        .containsOnly("connected");
    assertThat(statuses("nolease-old")).containsExactly("disconnected");
    assertThat(statuses("nolease-new")).containsExactly("connected");
    assertThat(
            count(
                "SELECT count(*) FROM clusters c, gateway_replicas r WHERE c.name LIKE 'lapsed-%' "
                    + "AND r.replica = 'r-lapsed' AND c.last_seen = r.seen_at"))
        .as("last seen at the lease's time")
        .isEqualTo(20);
  }

  @Test
  void aClusterSweptWhileItsReplicaWasPausedIsConnectedAgainWhenHeard() throws Exception {
    List<String> names = connected("paused-", 3, "r-paused", "now() - interval '10 minutes'");
    TestDatabase.execute(
        db, "UPDATE clusters SET status = 'disconnected' WHERE name LIKE 'paused-%'");
    TestDatabase.execute(
        db, "INSERT INTO clusters (name, status) VALUES ('paused-retired', 'retired')");

    get(store.renew("r-paused").compose(v -> store.seen(List.of(names.get(0), "paused-retired"))));

    assertThat(statuses(names.get(0))).containsExactly("connected");
    assertThat(statuses(names.get(1)))
        .as("not heard: stays disconnected")
        .containsExactly("disconnected");
    assertThat(statuses("paused-retired")).containsExactly("retired");
  }

  @Test
  void aSessionWhoseDetachFailedIsDetachedByALaterTick() throws Exception {
    connected("undetached-", 1, "r-ticker", "now()");
    GatewaySettings settings = GatewaySettings.fromEnvironment(Map.of());
    PresenceTicker ticker = new PresenceTicker(List::of, store, settings, System::nanoTime);

    ticker.detachLater("undetached-000", "session-undetached-000");
    ticker.tick();

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> statuses("undetached-000").contains("disconnected"));
  }

  /**
   * {@code n} connected clusters whose sessions are on {@code replica}, last seen at {@code
   * lastSeen}.
   */
  private static List<String> connected(String prefix, int n, String replica, String lastSeen) {
    TestDatabase.execute(
        db,
        "INSERT INTO clusters (name, status, last_seen) SELECT '"
            + prefix
            + "' || lpad(i::text, 3, '0'), 'connected', "
            + lastSeen
            + " FROM generate_series(0, "
            + (n - 1)
            + ") i");
    TestDatabase.execute(
        db,
        "INSERT INTO agent_channel_state (cluster, session, replica, connected_at) SELECT name, "
            + "'session-' || name, '"
            + replica
            + "', now() FROM clusters WHERE name LIKE '"
            + prefix
            + "%'");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(prefix + String.format("%03d", i));
    }
    return names;
  }

  private static String versions(String prefix) throws Exception {
    return get(pool.preparedQuery(
                "SELECT string_agg(xmin::text, ',' ORDER BY name) FROM clusters WHERE name LIKE $1")
            .execute(Tuple.of(prefix + "%")))
        .iterator()
        .next()
        .getString(0);
  }

  private static List<String> statuses(String prefix) throws Exception {
    List<String> out = new ArrayList<>();
    get(pool.preparedQuery("SELECT status FROM clusters WHERE name LIKE $1 ORDER BY name")
            .execute(Tuple.of(prefix + "%")))
        .forEach(r -> out.add(r.getString(0)));
    return out;
  }

  private static long count(String sql) throws Exception {
    return get(pool.query(sql).execute()).iterator().next().getLong(0);
  }

  private static <T> T get(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
