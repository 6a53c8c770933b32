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
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The transaction that raises a webhook event (a rollout transition, an agent's status report, the
 * signals evaluator) writes one event row whatever the number of webhooks; the dispatcher's fan-out
 * turns it into one delivery per matching webhook of the event's team (or of no team), once however
 * many replicas fan out at the same time, and in event order per webhook.
 */
class WebhookFanOutIT {
  private static final String ENQUEUE = "SELECT olmstead_webhook_enqueue($1, $2, $3, $4)";
  // 25 red webhooks (even numbers), 25 blue ones, and a fleet-wide webhook of no team
  private static final int RED_AND_FLEET = 26;
  private static Vertx vertx;
  private static Pool pool;
  private static DatabaseSettings db;

  @BeforeAll
  static void start() {
    db = TestDatabase.create(WebhookFanOutIT.class);
    Migrations.migrate(db);
    vertx = Vertx.vertx();
    pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(6))
            .connectingTo(db.connectOptions())
            .using(vertx)
            .build();
    for (int i = 0; i < 50; i++) {
      String team = i % 2 == 0 ? "red" : "blue";
      TestDatabase.execute(
          db,
          "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('w"
              + i
              + "', 'https://receiver.example/', '{io.olmstead.rollout.*}', 's', '"
              + team
              + "', 'test')");
    }
    TestDatabase.execute(
        db,
        "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('fleet', "
            + "'https://receiver.example/', '{*}', 's', NULL, 'test')");
    TestDatabase.execute(
        db,
        "INSERT INTO rollouts (id, subscription, target_version, strategy, state, created_by, "
            + "team) VALUES ('ro-red', 'sub-red', '1.0.0', '{}', 'Progressing', 'test', 'red')");
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  @AfterEach
  void outboxIsEmptyAfterEachTest() throws Exception {
    assertThat(count("SELECT count(*) FROM webhook_events"))
        .as("events left in the outbox")
        .isZero();
  }

  @Test
  void anEventIsOneRowInItsTransactionAndBecomesOneDeliveryPerMatchingWebhookOfItsTeamOnce()
      throws Exception {
    int before = count("SELECT count(*) FROM webhook_deliveries");
    int inTransaction =
        await(
            pool.withTransaction(
                conn ->
                    conn.preparedQuery(ENQUEUE)
                        .execute(
                            Tuple.of(
                                "io.olmstead.rollout.wave.opened", "red", "r1", "{\"id\":\"e1\"}"))
                        .compose(
                            v -> conn.query("SELECT count(*) FROM webhook_deliveries").execute())
                        .map(rows -> rows.iterator().next().getInteger(0))));
    assertThat(inTransaction)
        .as("no delivery written by the raising transaction")
        .isEqualTo(before);
    assertThat(count("SELECT count(*) FROM webhook_events")).isEqualTo(1);

    // three replicas fan out at once: one of them takes the event, the others find nothing to do
    Deliveries deliveries = new Deliveries(pool);
    List<Future<Deliveries.FannedOut>> racing = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      racing.add(deliveries.fanOut(Deliveries.FAN_OUT_BATCH));
    }
    int events = 0;
    int queued = 0;
    for (Future<Deliveries.FannedOut> f : racing) {
      events += await(f).events();
      queued += await(f).deliveries();
    }
    assertThat(events).isEqualTo(1);
    assertThat(queued).isEqualTo(RED_AND_FLEET);
    assertThat(
            count(
                "SELECT count(*) FROM webhook_deliveries WHERE subject = 'r1' AND body = '{\"id\":\"e1\"}' "
                    + "AND type = 'io.olmstead.rollout.wave.opened' AND state = 'Pending'"))
        .isEqualTo(RED_AND_FLEET);
    assertThat(
            count(
                "SELECT count(*) FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id "
                    + "WHERE d.subject = 'r1' AND w.team = 'blue'"))
        .as("no blue webhook sees a red event")
        .isZero();
    assertThat(await(deliveries.fanOut(Deliveries.FAN_OUT_BATCH)))
        .as("nothing left to fan out")
        .isEqualTo(new Deliveries.FannedOut(0, 0));
  }

  @Test
  void aRolloutTransitionWritesOneEventRowWhateverTheNumberOfWebhooks() throws Exception {
    int before = count("SELECT count(*) FROM webhook_deliveries");
    TestDatabase.execute(
        db,
        "INSERT INTO rollout_history (rollout_id, kind, message, actor) VALUES ('ro-red', "
            + "'WaveOpened', 'transition', 'test')");
    assertThat(count("SELECT count(*) FROM webhook_events WHERE team = 'red'")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM webhook_deliveries")).isEqualTo(before);

    assertThat(await(new Deliveries(pool).fanOut(Deliveries.FAN_OUT_BATCH)))
        .isEqualTo(new Deliveries.FannedOut(1, RED_AND_FLEET));
    assertThat(
            count(
                "SELECT count(*) FROM webhook_deliveries WHERE type = 'io.olmstead.rollout.wave.opened' "
                    + "AND body LIKE '%\"message\" : \"transition\"%'"))
        .isEqualTo(RED_AND_FLEET);
  }

  @Test
  void anEventOfATeamWithoutWebhooksReachesOnlyTheWebhookOfNoTeamAndAnUnmatchedEventIsDropped()
      throws Exception {
    await(
        pool.preparedQuery(ENQUEUE)
            .execute(Tuple.of("io.olmstead.rollout.wave.opened", "green", "g1", "{}")));
    await(
        pool.preparedQuery(ENQUEUE)
            .execute(Tuple.of("io.olmstead.rollout.wave.opened", null, "n1", "{}")));
    assertThat(await(new Deliveries(pool).fanOut(Deliveries.FAN_OUT_BATCH)))
        .as(
            "only the webhook of no team, which takes every team's events and the events of no team")
        .isEqualTo(new Deliveries.FannedOut(2, 2));
    assertThat(
            count(
                "SELECT count(*) FROM webhook_deliveries WHERE subject IN ('g1', 'n1') "
                    + "AND webhook_id = "
                    + idOf("fleet")))
        .isEqualTo(2);

    TestDatabase.execute(
        db, "UPDATE webhooks SET events = '{io.olmstead.rollout.*}' WHERE name = 'fleet'");
    try {
      await(
          pool.preparedQuery(ENQUEUE)
              .execute(Tuple.of("io.olmstead.cluster.disconnected", "red", "c1", "{}")));
      assertThat(await(new Deliveries(pool).fanOut(Deliveries.FAN_OUT_BATCH)))
          .as("no pattern matches: dropped")
          .isEqualTo(new Deliveries.FannedOut(1, 0));
    } finally {
      TestDatabase.execute(db, "UPDATE webhooks SET events = '{*}' WHERE name = 'fleet'");
    }
  }

  @Test
  void aWebhookCreatedAfterAnEventButBeforeItsFanOutDoesNotGetIt() throws Exception {
    await(
        pool.preparedQuery(ENQUEUE)
            .execute(Tuple.of("io.olmstead.rollout.wave.opened", null, "before", "{}")));
    TestDatabase.execute(
        db,
        "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('late', "
            + "'https://receiver.example/', '{*}', 's', NULL, 'test')");
    try {
      await(
          pool.preparedQuery(ENQUEUE)
              .execute(Tuple.of("io.olmstead.rollout.wave.opened", null, "after", "{}")));
      assertThat(await(new Deliveries(pool).fanOut(Deliveries.FAN_OUT_BATCH)))
          .as("fleet gets both, late only the second")
          .isEqualTo(new Deliveries.FannedOut(2, 3));
      assertThat(
              count(
                  "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = "
                      + idOf("late")
                      + " AND subject = 'before'"))
          .isZero();
      assertThat(
              count(
                  "SELECT count(*) FROM webhook_deliveries WHERE webhook_id = "
                      + idOf("late")
                      + " AND subject = 'after'"))
          .isEqualTo(1);
    } finally {
      TestDatabase.execute(db, "DELETE FROM webhook_deliveries WHERE webhook_id = " + idOf("late"));
      TestDatabase.execute(db, "DELETE FROM webhooks WHERE name = 'late'");
    }
  }

  @Test
  void eachWebhookGetsTheEventsInTheOrderTheyWereRaisedAcrossBatches() throws Exception {
    for (int i = 0; i < 7; i++) {
      await(
          pool.preparedQuery(ENQUEUE)
              .execute(Tuple.of("io.olmstead.rollout.step", "red", "o" + i, "{}")));
    }
    Deliveries deliveries = new Deliveries(pool);
    int events = 0;
    for (int batch = 0; batch < 4; batch++) {
      events += await(deliveries.fanOut(2)).events();
    }
    assertThat(events).isEqualTo(7);
    for (String webhook : List.of("w0", "w48", "fleet")) {
      List<String> subjects =
          await(
              pool.preparedQuery(
                      "SELECT subject FROM webhook_deliveries WHERE webhook_id = "
                          + "(SELECT id FROM webhooks WHERE name = $1) "
                          + "AND subject LIKE 'o_' ORDER BY next_attempt_at, id")
                  .execute(Tuple.of(webhook))
                  .map(
                      rows -> {
                        List<String> out = new ArrayList<>();
                        rows.forEach(r -> out.add(r.getString(0)));
                        return out;
                      }));
      assertThat(subjects)
          .as(webhook + ": the claim's order")
          .containsExactly("o0", "o1", "o2", "o3", "o4", "o5", "o6");
    }
  }

  @Test
  void whileOneReplicaFansOutAnotherLeavesTheEventsToIt() throws Exception {
    await(
        pool.preparedQuery(ENQUEUE)
            .execute(Tuple.of("io.olmstead.rollout.step", "red", "l1", "{}")));
    SqlConnection other = await(pool.getConnection());
    try {
      // another replica in the middle of its fan-out holds the fan-out's lock
      await(other.query("BEGIN").execute());
      await(other.query("SELECT pg_advisory_xact_lock(8028912578386749039)").execute());
      assertThat(await(new Deliveries(pool).fanOut(Deliveries.FAN_OUT_BATCH)))
          .isEqualTo(new Deliveries.FannedOut(0, 0));
      assertThat(count("SELECT count(*) FROM webhook_events WHERE subject = 'l1'")).isEqualTo(1);
      await(other.query("COMMIT").execute());
    } finally {
      other.close();
    }
    assertThat(await(new Deliveries(pool).fanOut(Deliveries.FAN_OUT_BATCH)))
        .isEqualTo(new Deliveries.FannedOut(1, RED_AND_FLEET));
  }

  private static int count(String sql) throws Exception {
    return await(pool.query(sql).execute().map(rows -> rows.iterator().next().getInteger(0)));
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /** The id of the (only) webhook of that name, as SQL: deliveries reference webhooks by id. */
  private static String idOf(String name) {
    return "(SELECT id FROM webhooks WHERE name = '" + name + "')";
  }
}
