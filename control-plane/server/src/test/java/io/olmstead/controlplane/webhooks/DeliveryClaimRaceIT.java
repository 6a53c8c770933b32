package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.db.Migrations;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas claim at once and one's statement snapshot predates the other's commit: the later
 * claim re-checks "due and not leased" on the rows it locks, so the two claims never return the
 * same delivery. The interleaving is made deterministic with a gate: a row-level security policy
 * (test only) whose function waits on an advisory lock that the test holds, for the session that
 * asked for it (a role that is no superuser, which row-level security binds), after that session's
 * statement has taken its snapshot.
 */
class DeliveryClaimRaceIT {
  private static final long GATE = 4_242_4242L;
  private static Vertx vertx;
  private static Pool first;
  private static Pool late;
  private static Pool control;

  @BeforeAll
  static void start() throws Exception {
    DatabaseSettings db = TestDatabase.create(DeliveryClaimRaceIT.class);
    Migrations.migrate(db);
    // one delivery for each of five webhooks: a claim takes at most PER_WEBHOOK of one webhook
    for (int i = 0; i < 5; i++) {
      TestDatabase.execute(
          db,
          "INSERT INTO webhooks (name, url, events, secret, team, created_by) VALUES ('w"
              + i
              + "', 'https://receiver.example/', '{*}', 's', NULL, 'test')");
      TestDatabase.execute(
          db,
          "INSERT INTO webhook_deliveries (webhook_id, type, subject, body) "
              + "SELECT id, 'io.olmstead.rollout.step', 's"
              + i
              + "', '{}' FROM webhooks WHERE name = 'w"
              + i
              + "'");
    }
    TestDatabase.execute(
        db,
        "CREATE FUNCTION test_claim_gate() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN "
            + "IF current_setting('olmstead.test_gate', true) = 'on' THEN PERFORM pg_advisory_xact_lock_shared("
            + GATE
            + "); END IF; RETURN true; END $$");
    TestDatabase.execute(db, "ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY");
    TestDatabase.execute(db, "ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY");
    TestDatabase.execute(db, "CREATE POLICY gate ON webhook_deliveries USING (test_claim_gate())");
    // row-level security binds no superuser: the gated replica signs in as a role of its own
    String role = db.database() + "_claimer";
    TestDatabase.execute(db, "CREATE ROLE " + role + " LOGIN PASSWORD 'claimer'");
    TestDatabase.execute(db, "GRANT ALL ON ALL TABLES IN SCHEMA public TO " + role);
    vertx = Vertx.vertx();
    first = pool(db);
    late =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(1))
            .connectingTo(db.connectOptions().setUser(role).setPassword("claimer"))
            .using(vertx)
            .build();
    control = pool(db);
    get(late.query("SET olmstead.test_gate = 'on'").execute());
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  @Test
  void aClaimWhoseSnapshotPredatesAnotherClaimsCommitDoesNotTakeTheSameDeliveries()
      throws Exception {
    SqlConnection gate = get(control.getConnection());
    get(gate.query("BEGIN").execute());
    get(gate.query("SELECT pg_advisory_xact_lock(" + GATE + ")").execute());
    // the late claim takes its snapshot, then waits at the gate before it locks any row
    Future<List<Deliveries.Claimed>> lateClaim = new Deliveries(late).claim(10, List.of());
    await().atMost(Duration.ofSeconds(30)).until(() -> waitingAtGate(gate));
    List<Deliveries.Claimed> firstClaimed = get(new Deliveries(first).claim(10, List.of()));
    assertThat(firstClaimed).as("the first claim commits all five").hasSize(5);
    get(gate.query("COMMIT").execute());
    gate.close();

    assertThat(get(lateClaim))
        .as("leased by the first claim after the late one's snapshot")
        .isEmpty();
  }

  private static boolean waitingAtGate(SqlConnection conn) throws Exception {
    return get(
            conn.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                .execute()
                .map(rows -> rows.iterator().next().getLong(0)))
        > 0;
  }

  private static Pool pool(DatabaseSettings db) {
    return PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(1))
        .connectingTo(db.connectOptions())
        .using(vertx)
        .build();
  }

  private static <T> T get(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
