package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.hollow.HollowFleet;
import io.olmstead.controlplane.config.WebhookSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}; {@code -Dolmstead.bench.clusters=N}, default
 * 10): the rollout engine's step time ({@code olmstead_rollout_step_duration_seconds}, the steps
 * that saved transitions) over a whole rollout of N hollow clusters one per wave, without webhooks
 * and then with 50 webhooks subscribed to every rollout event at a loopback receiver that answers
 * each request after 5 s. A warm-up rollout runs first.
 */
class WebhookStepBenchIT {
  private static final int WEBHOOKS = 50;
  private static final long RECEIVER_DELAY_MILLIS = 5_000;
  private static final Pattern SUM =
      Pattern.compile("olmstead_rollout_step_duration_seconds_sum\\S* (\\S+)");
  private static final Pattern COUNT =
      Pattern.compile("olmstead_rollout_step_duration_seconds_count\\S* (\\S+)");

  private record Phase(Steps steps, long rolloutMillis) {
    @Override
    public String toString() {
      return String.format(
          "%.1f ms (%d, %d ms)", steps.meanMillis(), (long) steps.count, rolloutMillis);
    }
  }

  private record Steps(double count, double seconds) {
    Steps minus(Steps before) {
      return new Steps(count - before.count, seconds - before.seconds);
    }

    double meanMillis() {
      return seconds * 1000 / count;
    }
  }

  @Test
  void fiftyWebhooksToASlowReceiverAddNoMeasurableTimeToTheEnginesStep() throws Exception {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    int clusters = Integer.getInteger("olmstead.bench.clusters", 10);
    Vertx vertx = Vertx.vertx();
    AtomicInteger requests = new AtomicInteger();
    HttpServer slow =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  requests.incrementAndGet();
                  vertx.setTimer(
                      RECEIVER_DELAY_MILLIS, t -> request.response().setStatusCode(204).end());
                })
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    try (TestControlPlane cp =
        TestControlPlane.start(
            TestDatabase.create(WebhookStepBenchIT.class),
            Map.of(WebhookSettings.ALLOW_PRIVATE, "true"))) {
      ApiClient api = new ApiClient(cp);
      RolloutFixtures fx = new RolloutFixtures(cp.database());
      fx.catalog();
      rollout(cp, api, fx, vertx, "warm", clusters);
      // twice each, alternating, so that a change of the machine's load shows as a difference
      // between the pairs
      Phase plain1 = phase(cp, api, fx, vertx, "plain1", clusters);
      createWebhooks(api, slow.actualPort());
      Phase hooked1 = phase(cp, api, fx, vertx, "hooked1", clusters);
      long queued = fx.count("SELECT count(*) FROM webhook_deliveries");
      long pending = fx.count("SELECT count(*) FROM webhook_deliveries WHERE state = 'Pending'");
      for (int i = 0; i < WEBHOOKS; i++) {
        assertThat(api.delete("/api/v1/webhooks/slow-" + i, TestControlPlane.ADMIN_TOKEN).status())
            .isEqualTo(204);
      }
      Phase plain2 = phase(cp, api, fx, vertx, "plain2", clusters);
      createWebhooks(api, slow.actualPort());
      Phase hooked2 = phase(cp, api, fx, vertx, "hooked2", clusters);
      double[] historyInsert = historyInserts(cp);
      System.out.printf(
          "BENCH webhook step, %d clusters one per wave, mean step (steps, rollout wall time): "
              + "without webhooks %s then %s; with %d webhooks to a %d ms receiver %s then %s; after the first hooked "
              + "rollout %d deliveries queued, %d still pending, %d requests had reached the receiver%n",
          clusters,
          plain1,
          plain2,
          WEBHOOKS,
          RECEIVER_DELAY_MILLIS,
          hooked1,
          hooked2,
          queued,
          pending,
          requests.get());
      System.out.printf(
          "BENCH webhook outbox, one rollout_history insert in its own transaction, mean of 500: "
              + "%.3f ms without webhooks, %.3f ms with 1 matching webhook, %.3f ms with %d%n",
          historyInsert[0], historyInsert[1], historyInsert[2], WEBHOOKS);
      assertThat(queued)
          .as("every transition queued a delivery per webhook")
          .isGreaterThanOrEqualTo(WEBHOOKS * 2L);
      assertThat(requests.get())
          .as("the slow receiver was being called during the rollout")
          .isPositive();
      // loose on purpose (a shared 2-core machine): a step that waited for a receiver would take 5
      // s
      assertThat(hooked1.steps().meanMillis()).isLessThan(1_000);
      assertThat(hooked2.steps().meanMillis()).isLessThan(1_000);
    } finally {
      vertx.close();
    }
  }

  private static Phase phase(
      TestControlPlane cp,
      ApiClient api,
      RolloutFixtures fx,
      Vertx vertx,
      String name,
      int clusters)
      throws Exception {
    Steps before = steps(api);
    long millis = rollout(cp, api, fx, vertx, name, clusters);
    return new Phase(steps(api).minus(before), millis);
  }

  private static void createWebhooks(ApiClient api, int port) {
    for (int i = 0; i < WEBHOOKS; i++) {
      Response created =
          api.json(
              "POST",
              "/api/v1/webhooks",
              TestControlPlane.ADMIN_TOKEN,
              new JsonObject()
                  .put("name", "slow-" + i)
                  .put("url", "http://127.0.0.1:" + port + "/" + i)
                  .put("events", new JsonArray().add("io.olmstead.rollout.*"))
                  .put("secret", "a-shared-secret-of-length"));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
    }
  }

  /**
   * The outbox's share of the engine's transactions, alone: mean time of one {@code
   * rollout_history} insert (what the engine writes per transition) committed on its own, without
   * webhooks, with one and with {@link #WEBHOOKS} matching ones (the running dispatcher fans the
   * events out meanwhile, as it would in production).
   */
  private static double[] historyInserts(TestControlPlane cp) throws Exception {
    var db = cp.database();
    try (java.sql.Connection c =
        java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
      c.createStatement()
          .execute(
              "INSERT INTO rollouts (id, subscription, target_version, strategy, state, "
                  + "created_by) VALUES ('ro-bench', 'bench', '1.0.0', '{}', 'Progressing', 'test')");
      c.createStatement().execute("CREATE TEMP TABLE saved AS SELECT * FROM webhooks");
      // the receiver is not to be called for these: their deliveries go to a closed port
      c.createStatement().execute("UPDATE saved SET url = 'http://127.0.0.1:1/'");
      c.createStatement().execute("DELETE FROM webhooks");
      double[] out = new double[3];
      for (int round = 0; round < 3; round++) {
        if (round == 1) {
          c.createStatement()
              .execute("INSERT INTO webhooks SELECT * FROM saved WHERE name = 'slow-0'");
        } else if (round == 2) {
          c.createStatement()
              .execute("INSERT INTO webhooks SELECT * FROM saved WHERE name <> 'slow-0'");
        }
        try (java.sql.PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO rollout_history (rollout_id, kind, "
                    + "message, actor) VALUES ('ro-bench', 'BenchEvent', 'bench', 'test')")) {
          for (int i = 0; i < 100; i++) {
            insert.executeUpdate(); // warm-up
          }
          long started = System.nanoTime();
          for (int i = 0; i < 500; i++) {
            insert.executeUpdate();
          }
          out[round] = (System.nanoTime() - started) / 1e6 / 500;
        }
      }
      return out;
    }
  }

  /**
   * A rollout 0.9.2 to 0.9.4 of a fresh fleet of hollow clusters, one per wave; answers its wall
   * time.
   */
  private static long rollout(
      TestControlPlane cp,
      ApiClient api,
      RolloutFixtures fx,
      Vertx vertx,
      String name,
      int clusters)
      throws Exception {
    fx.subscription(name, "fleet=" + name, "0.9.2");
    HollowFleet fleet =
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                clusters,
                URI.create(cp.baseUrl()),
                fx.enrollmentToken(clusters, "{\"fleet\":\"" + name + "\"}"),
                name + "-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0));
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status "
                              + "WHERE subscription = ? AND installed_version = '0.9.2' AND phase = 'Succeeded'",
                          name)
                      == clusters);
      long started = System.nanoTime();
      Response created =
          api.json(
              "POST",
              "/api/v1/rollouts",
              TestControlPlane.ADMIN_TOKEN,
              new JsonObject()
                  .put("subscription", name)
                  .put("targetVersion", "0.9.4")
                  .put("strategy", new JsonObject().put("batchSize", 1)));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().getString("id");
      await()
          .atMost(Duration.ofSeconds(180))
          .until(
              () ->
                  "Succeeded"
                      .equals(
                          api.get("/api/v1/rollouts/" + id, TestControlPlane.ADMIN_TOKEN)
                              .json()
                              .getString("state")));
      return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    } finally {
      fleet.close();
    }
  }

  private static Steps steps(ApiClient api) {
    String metrics = api.get("/metrics", null).body();
    return new Steps(value(COUNT, metrics), value(SUM, metrics));
  }

  private static double value(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
