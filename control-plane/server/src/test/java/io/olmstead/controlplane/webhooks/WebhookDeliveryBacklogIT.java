package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The delivery backlog on {@code /metrics}: deliveries not delivered yet, those due now, and how
 * long the longest-due one has waited; delivered, failed and dropped ones are not backlog. No
 * dispatcher runs here, so nothing moves the rows while they are counted.
 */
class WebhookDeliveryBacklogIT {
  private static Vertx vertx;
  private static Pool pool;
  private static DatabaseSettings db;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(WebhookDeliveryBacklogIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(2))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    TestDatabase.execute(
        db,
        "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('slow', "
            + "'https://receiver.example/', '{io.olmstead.*}', 's', NULL, 'test')");
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  @Test
  void theGaugesCountUndeliveredAndDueDeliveriesAndAgeTheLongestDue() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    WebhookBacklog backlog = new WebhookBacklog(pool, registry);
    await(backlog.refreshDeliveries());
    assertThat(value(registry.scrape(), "olmstead_webhook_deliveries_pending")).isZero();
    assertThat(value(registry.scrape(), "olmstead_webhook_deliveries_overdue_seconds")).isZero();

    insert("Pending", "now() - interval '5 minutes'", 3); // due for 5 minutes: no sender took them
    insert("Pending", "now() + interval '1 hour'", 2); // waiting for their retry
    insert("Delivered", "now() - interval '1 hour'", 4);
    insert("Failed", "now() - interval '1 hour'", 1);
    await(backlog.refreshDeliveries());

    String scrape = registry.scrape();
    assertThat(value(scrape, "olmstead_webhook_deliveries_pending")).isEqualTo(5);
    assertThat(value(scrape, "olmstead_webhook_deliveries_due")).isEqualTo(3);
    assertThat(value(scrape, "olmstead_webhook_deliveries_overdue_seconds"))
        .isBetween(300.0, 3600.0);
  }

  private static void insert(String state, String nextAttempt, int count) {
    TestDatabase.execute(
        db,
        "INSERT INTO webhook_deliveries (webhook_id, type, body, state, next_attempt_at) "
            + "SELECT (SELECT id FROM webhooks WHERE name = 'slow'), 'io.olmstead.rollout.created', '{}', '"
            + state
            + "', "
            + nextAttempt
            + " FROM generate_series(1, "
            + count
            + ")");
  }

  private static double value(String scrape, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(scrape);
    if (!m.find()) {
      throw new AssertionError(name + " is not exported:\n" + scrape);
    }
    return Double.parseDouble(m.group(1));
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
