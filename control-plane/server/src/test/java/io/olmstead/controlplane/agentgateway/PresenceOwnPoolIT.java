package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.GatewaySettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A replica renews its presence lease on a connection of its own: with every connection of its main
 * pool taken (a whole fleet redialing at once queues attaches and publishes there), the lease is
 * still renewed, so no other replica's sweep marks this replica's healthy clusters disconnected.
 */
class PresenceOwnPoolIT {
  private static final int POOL_SIZE = 2;

  @Test
  void theLeaseIsRenewedWhileEveryConnectionOfTheMainPoolIsHeld() throws Exception {
    DatabaseSettings db = TestDatabase.create(PresenceOwnPoolIT.class);
    Vertx vertx = Vertx.vertx();
    Pool observer =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(1))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    try (TestControlPlane cp =
        TestControlPlane.start(
            db,
            Map.of(
                ControlPlaneConfig.DB_POOL_SIZE, String.valueOf(POOL_SIZE),
                GatewaySettings.HEARTBEAT_SECONDS, "1",
                GatewaySettings.DISCONNECT_SECONDS, "3"))) {
      await().atMost(Duration.ofSeconds(30)).until(() -> lastRenewal(observer) != null);
      Pool main = cp.controlPlane().pool();
      List<SqlConnection> held = new ArrayList<>();
      try {
        for (int i = 0; i < POOL_SIZE; i++) {
          held.add(get(main.getConnection()));
        }
        OffsetDateTime takenAt = lastRenewal(observer);

        await()
            .atMost(Duration.ofSeconds(20))
            .untilAsserted(
                () ->
                    assertThat(lastRenewal(observer))
                        .as(
                            "gateway_replicas.seen_at with the main pool's %d connections held",
                            POOL_SIZE)
                        .isAfter(takenAt));
      } finally {
        held.forEach(SqlConnection::close);
      }
    } finally {
      vertx.close();
    }
  }

  private static OffsetDateTime lastRenewal(Pool observer) throws Exception {
    return get(observer.query("SELECT max(seen_at) FROM gateway_replicas").execute())
        .iterator()
        .next()
        .getOffsetDateTime(0);
  }

  private static <T> T get(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
