package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.config.SignalSettings;
import io.olmstead.controlplane.config.WebhookSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.DoublePredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The outbox's backlog on {@code /metrics}: a running dispatcher's gauges count the events not yet
 * fanned out and age the oldest while the fan-out is held (another replica holding its lock), and
 * fall to 0 once it fans them out.
 */
class WebhookBacklogIT {
  private static final String ENQUEUE = "SELECT olmstead_webhook_enqueue($1, $2, $3, $4)";
  private static final String PENDING = "olmstead_webhook_events_pending";
  private static final String OLDEST = "olmstead_webhook_events_oldest_age_seconds";
  private static final long FAN_OUT_LOCK = 8028912578386749039L;
  private static Vertx vertx;
  private static Pool pool;

  @BeforeAll
  static void start() {
    DatabaseSettings db = TestDatabase.create(WebhookBacklogIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(4))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    // a webhook must exist for events to be written; it matches none of them, so nothing is ever
    // sent
    TestDatabase.execute(
        db,
        "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('quiet', "
            + "'https://receiver.example/', '{io.olmstead.none}', 's', NULL, 'test')");
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  @Test
  void theGaugesRiseWithEventsWaitingForTheFanOutAndFallToZeroOnceItRuns() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SqlConnection otherReplica = await(pool.getConnection());
    try {
      // another replica in the middle of a fan-out holds its lock: this replica's dispatcher leaves
      // the events
      await(otherReplica.query("BEGIN").execute());
      await(otherReplica.query("SELECT pg_advisory_xact_lock(" + FAN_OUT_LOCK + ")").execute());
      new WebhookDispatcher(
              vertx,
              pool,
              new WebhookSettings(false, SignalSettings.fromEnvironment(Map.of())),
              registry)
          .start();
      for (int i = 0; i < 5; i++) {
        await(
            pool.preparedQuery(ENQUEUE)
                .execute(Tuple.of("io.olmstead.rollout.step", "red", "b" + i, "{}")));
      }
      waitFor(registry, PENDING, v -> v == 5);
      waitFor(registry, OLDEST, v -> v >= 1.0);
      double aged = value(registry.scrape(), OLDEST);
      waitFor(registry, OLDEST, v -> v > aged);
      assertThat(value(registry.scrape(), PENDING)).as("still held back").isEqualTo(5);

      await(otherReplica.query("COMMIT").execute());
    } finally {
      otherReplica.close();
    }
    assertThat(promtoolCheckMetrics(registry.scrape())).as("promtool check metrics").isEmpty();
    waitFor(registry, PENDING, v -> v == 0);
    assertThat(value(registry.scrape(), OLDEST)).as("no event waits").isZero();
    assertThat(
            (long)
                await(
                    pool.query("SELECT count(*) FROM webhook_events")
                        .execute()
                        .map(rows -> rows.iterator().next().getLong(0))))
        .isEqualTo(0L);
  }

  private static void waitFor(
      PrometheusMeterRegistry registry, String name, DoublePredicate expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    double last = Double.NaN;
    while (System.nanoTime() < deadline) {
      last = value(registry.scrape(), name);
      if (expected.test(last)) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(name + " stayed at " + last + " for 15 s");
  }

  /**
   * What {@code promtool check metrics} finds wrong with the exposition ("" when promtool is not
   * installed).
   */
  private static String promtoolCheckMetrics(String scrape) throws Exception {
    boolean installed =
        java.util.stream.Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
            .anyMatch(
                dir -> java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, "promtool")));
    if (!installed) {
      System.out.println(
          "WebhookBacklogIT: promtool is not installed; the exposition format check is skipped");
      return "";
    }
    Process promtool =
        new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
    try (var in = promtool.getOutputStream()) {
      in.write(scrape.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    String out =
        new String(
            promtool.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(promtool.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return promtool.exitValue() == 0 ? "" : "exit " + promtool.exitValue() + ": " + out;
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
