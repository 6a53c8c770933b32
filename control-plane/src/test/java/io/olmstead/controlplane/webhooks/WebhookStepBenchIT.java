package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.hollow.HollowFleet;
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
 * Benchmark (runs with {@code -Dolmstead.bench=true}; {@code -Dolmstead.bench.clusters=N}, default 10): the rollout
 * engine's step time ({@code olmstead_rollout_step_duration_seconds}, the steps that saved transitions) over a whole
 * rollout of N hollow clusters one per wave, without webhooks and then with 50 webhooks subscribed to every rollout
 * event at a loopback receiver that answers each request after 5 s. A warm-up rollout runs first.
 */
class WebhookStepBenchIT {
  private static final int WEBHOOKS = 50;
  private static final long RECEIVER_DELAY_MILLIS = 5_000;
  private static final Pattern SUM = Pattern.compile("olmstead_rollout_step_duration_seconds_sum\\S* (\\S+)");
  private static final Pattern COUNT = Pattern.compile("olmstead_rollout_step_duration_seconds_count\\S* (\\S+)");

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
    HttpServer slow = vertx.createHttpServer().requestHandler(request -> {
      requests.incrementAndGet();
      vertx.setTimer(RECEIVER_DELAY_MILLIS, t -> request.response().setStatusCode(204).end());
    }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    try (TestControlPlane cp = TestControlPlane.start(TestDatabase.create(WebhookStepBenchIT.class),
        Map.of(WebhookSettings.ALLOW_PRIVATE, "true"))) {
      ApiClient api = new ApiClient(cp);
      RolloutFixtures fx = new RolloutFixtures(cp.database());
      fx.catalog();
      rollout(cp, api, fx, vertx, "warm", clusters);
      Steps start = steps(api);
      long withoutMillis = rollout(cp, api, fx, vertx, "plain", clusters);
      Steps without = steps(api).minus(start);
      for (int i = 0; i < WEBHOOKS; i++) {
        Response created = api.json("POST", "/api/v1/webhooks", TestControlPlane.ADMIN_TOKEN, new JsonObject()
            .put("name", "slow-" + i).put("url", "http://127.0.0.1:" + slow.actualPort() + "/" + i)
            .put("events", new JsonArray().add("io.olmstead.rollout.*")).put("secret", "a-shared-secret-of-length"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
      }
      Steps before = steps(api);
      long withMillis = rollout(cp, api, fx, vertx, "hooked", clusters);
      Steps with = steps(api).minus(before);
      long queued = fx.count("SELECT count(*) FROM webhook_deliveries");
      long pending = fx.count("SELECT count(*) FROM webhook_deliveries WHERE state = 'Pending'");
      System.out.printf("BENCH webhook step, %d clusters one per wave: without webhooks %d steps, mean %.2f ms, "
          + "rollout %d ms; with %d webhooks to a %d ms receiver %d steps, mean %.2f ms, rollout %d ms; "
          + "%d deliveries queued, %d still pending, %d requests reached the receiver%n", clusters, (long) without.count,
          without.meanMillis(), withoutMillis, WEBHOOKS, RECEIVER_DELAY_MILLIS, (long) with.count, with.meanMillis(),
          withMillis, queued, pending, requests.get());
      assertThat(queued).as("every transition queued a delivery per webhook").isGreaterThanOrEqualTo(WEBHOOKS * 2L);
      assertThat(requests.get()).as("the slow receiver was being called during the rollout").isPositive();
      // loose on purpose (a shared 2-core machine): a step that waited for a receiver would take 5 s
      assertThat(with.meanMillis()).isLessThan(without.meanMillis() * 3 + 20);
    } finally {
      vertx.close();
    }
  }

  /** A rollout 0.9.2 to 0.9.4 of a fresh fleet of hollow clusters, one per wave; answers its wall time. */
  private static long rollout(TestControlPlane cp, ApiClient api, RolloutFixtures fx, Vertx vertx, String name,
      int clusters) throws Exception {
    fx.subscription(name, "fleet=" + name, "0.9.2");
    HollowFleet fleet = HollowFleet.start(vertx, new HollowFleet.Settings(clusters, URI.create(cp.baseUrl()),
        fx.enrollmentToken(clusters, "{\"fleet\":\"" + name + "\"}"), name + "-", Duration.ofMillis(300), 0.0,
        Map.of(), null, 0));
    try {
      await().atMost(Duration.ofSeconds(60)).until(() -> fx.count("SELECT count(*) FROM subscription_status "
          + "WHERE subscription = ? AND installed_version = '0.9.2' AND phase = 'Succeeded'", name) == clusters);
      long started = System.nanoTime();
      Response created = api.json("POST", "/api/v1/rollouts", TestControlPlane.ADMIN_TOKEN, new JsonObject()
          .put("subscription", name).put("targetVersion", "0.9.4").put("strategy", new JsonObject().put("batchSize", 1)));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().getString("id");
      await().atMost(Duration.ofSeconds(180)).until(() -> "Succeeded".equals(api.get("/api/v1/rollouts/" + id,
          TestControlPlane.ADMIN_TOKEN).json().getString("state")));
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
