package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One claim takes at most what it asks for and at most {@link WebhookDispatcher#PER_WEBHOOK}
 * deliveries of each webhook, however PostgreSQL plans it: the rows are picked and locked once, not
 * re-picked for each row the update visits (a re-run of the locking subquery skips the rows this
 * very statement already updated and picks the next ones, so a claim of 16 returned 18 rows, and
 * silent receivers took every slot).
 */
class DeliveryClaimBoundsIT {
  private static Vertx vertx;
  private static Pool pool;

  @BeforeAll
  static void start() {
    DatabaseSettings db = TestDatabase.create(DeliveryClaimBoundsIT.class);
    Migrations.migrate(db);
    // about WebhooksIT's fairness case: 9 webhooks with 20 due deliveries each
    for (int i = 0; i < 9; i++) {
      TestDatabase.execute(
          db,
          "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('w"
              + i
              + "', 'https://receiver.example/', '{*}', 's', NULL, 'test')");
      TestDatabase.execute(
          db,
          "INSERT INTO webhook_deliveries (webhook_id, type, subject, body) "
              + "SELECT w.id, 'io.olmstead.rollout.step', 's' || n, '{}' FROM webhooks w, generate_series(1, 20) n "
              + "WHERE w.name = 'w"
              + i
              + "'");
    }
    // no ANALYZE: the planner works from default estimates, as on a young table
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(1))
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
  void aClaimTakesAtMostItsLimitAndAtMostEachWebhooksShareOfDistinctDeliveries() throws Exception {
    List<Deliveries.Claimed> claimed = get(new Deliveries(pool).claim(16, List.of()));
    Map<Long, Long> perWebhook =
        claimed.stream()
            .collect(Collectors.groupingBy(Deliveries.Claimed::webhookId, Collectors.counting()));

    assertThat(claimed).hasSize(16);
    assertThat(claimed).extracting(Deliveries.Claimed::id).doesNotHaveDuplicates();
    assertThat(perWebhook.values()).allMatch(n -> n <= WebhookDispatcher.PER_WEBHOOK);
    assertThat(perWebhook)
        .as("16 slots over 9 webhooks with due deliveries, 2 each at most")
        .hasSizeGreaterThanOrEqualTo(8);

    List<Deliveries.Claimed> next = get(new Deliveries(pool).claim(3, List.of()));
    assertThat(next).hasSize(3);
    assertThat(next)
        .extracting(Deliveries.Claimed::id)
        .doesNotContainAnyElementsOf(claimed.stream().map(Deliveries.Claimed::id).toList());
    assertThat(
            next.stream()
                .collect(
                    Collectors.groupingBy(Deliveries.Claimed::webhookId, Collectors.counting()))
                .values())
        .allMatch(n -> n <= WebhookDispatcher.PER_WEBHOOK);
  }

  private static <T> T get(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
