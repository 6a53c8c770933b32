package io.olmstead.controlplane.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhooks end to end: a real rollout on hollow agents produces signed CloudEvents at a receiver on
 * loopback, a 500 is retried, a dead receiver costs the rollout nothing, the secret is never shown,
 * and a team sees only its webhooks.
 */
class WebhooksIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String SECRET = "a-shared-secret-of-some-length";
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static HttpServer receiver;
  private static final List<Received> RECEIVED = new CopyOnWriteArrayList<>();
  private static final AtomicInteger FAIL_FIRST = new AtomicInteger(1);

  private record Received(String path, String contentType, String signature, String body) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    cp =
        TestControlPlane.start(
            TestDatabase.create(WebhooksIT.class), Map.of(WebhookSettings.ALLOW_PRIVATE, "true"));
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
    vertx = Vertx.vertx();
    receiver =
        vertx
            .createHttpServer()
            .requestHandler(
                request ->
                    request
                        .body()
                        .onSuccess(
                            body -> {
                              RECEIVED.add(
                                  new Received(
                                      request.path(),
                                      request.getHeader("Content-Type"),
                                      request.getHeader(Signatures.HEADER),
                                      body.toString(StandardCharsets.UTF_8)));
                              // the very first delivery is answered 500: it must come again
                              request
                                  .response()
                                  .setStatusCode(FAIL_FIRST.getAndDecrement() > 0 ? 500 : 204)
                                  .end();
                            }))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    cp.close();
    vertx.close();
  }

  private static Response create(String token, String name, String url, JsonArray events) {
    return api.json(
        "POST",
        "/api/v1/webhooks",
        token,
        new JsonObject()
            .put("name", name)
            .put("url", url)
            .put("events", events)
            .put("secret", SECRET));
  }

  private static String receiverUrl(String path) {
    return "http://127.0.0.1:" + receiver.actualPort() + path;
  }

  private static List<Received> at(String path) {
    return RECEIVED.stream().filter(r -> r.path().equals(path)).toList();
  }

  @Test
  void aRolloutsTransitionsArriveSignedRetriedAndADeadReceiverDelaysNothing() throws Exception {
    Response ops =
        create(ADMIN, "ops", receiverUrl("/ops"), new JsonArray().add("io.olmstead.rollout.*"));
    assertThat(ops.status()).as(ops.body()).isEqualTo(201);
    assertThat(ops.body()).doesNotContain(SECRET);
    assertThat(
            create(
                    ADMIN,
                    "paused",
                    receiverUrl("/paused"),
                    new JsonArray().add("io.olmstead.rollout.paused"))
                .status())
        .isEqualTo(201);
    // nothing listens on port 1: every attempt fails at once
    assertThat(create(ADMIN, "dead", "http://127.0.0.1:1/", new JsonArray().add("*")).status())
        .isEqualTo(201);

    fx.subscription("wh", "fleet=wh", "0.9.2");
    HollowFleet fleet =
        HollowFleet.start(
            vertx,
            new HollowFleet.Settings(
                2,
                URI.create(cp.baseUrl()),
                fx.enrollmentToken(2, "{\"fleet\":\"wh\"}"),
                "wh-",
                Duration.ofMillis(300),
                0.0,
                Map.of(),
                null,
                0));
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM subscription_status "
                              + "WHERE subscription = 'wh' AND installed_version = '0.9.2' AND phase = 'Succeeded'")
                      == 2);
      Response created =
          api.json(
              "POST",
              "/api/v1/rollouts",
              ADMIN,
              new JsonObject()
                  .put("subscription", "wh")
                  .put("targetVersion", "0.9.4")
                  .put("strategy", new JsonObject().put("batchSize", 2)));
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().getString("id");
      // the dead receiver's retries do not hold the rollout up
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  "Succeeded"
                      .equals(api.get("/api/v1/rollouts/" + id, ADMIN).json().getString("state")));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  at("/ops").stream()
                      .anyMatch(
                          r -> r.json().getString("type").equals("io.olmstead.rollout.succeeded")));
    } finally {
      fleet.close();
    }

    for (Received r : at("/ops")) {
      assertThat(r.contentType()).startsWith("application/cloudevents+json");
      assertThat(r.signature())
          .isEqualTo(Signatures.sign(SECRET, r.body().getBytes(StandardCharsets.UTF_8)));
      JsonObject event = r.json();
      assertThat(event.getString("specversion")).isEqualTo("1.0");
      assertThat(event.getString("type")).startsWith("io.olmstead.rollout.");
      assertThat(event.getString("source")).startsWith("/api/v1/rollouts/");
      assertThat(event.getJsonObject("data").getString("subscription")).isEqualTo("wh");
    }
    List<String> types =
        at("/ops").stream().map(r -> r.json().getString("type")).distinct().toList();
    assertThat(types)
        .contains(
            "io.olmstead.rollout.created",
            "io.olmstead.rollout.cluster.approved",
            "io.olmstead.rollout.succeeded");
    // the first delivery got a 500 and came again with the same id: delivered, after two attempts
    String firstId = RECEIVED.get(0).json().getString("id");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                api.get("/api/v1/webhooks/ops", ADMIN)
                        .json()
                        .getJsonObject("deliveries")
                        .getLong("pending")
                    == 0);
    assertThat(RECEIVED.stream().filter(r -> r.json().getString("id").equals(firstId))).hasSize(2);
    assertThat(at("/paused")).as("no rollout paused").isEmpty();

    JsonObject opsNow = api.get("/api/v1/webhooks/ops", ADMIN).json();
    assertThat(opsNow.getJsonObject("deliveries").getLong("delivered"))
        .isEqualTo(at("/ops").size() - 1L);
    assertThat(opsNow.encode()).doesNotContain(SECRET);
    JsonObject dead = api.get("/api/v1/webhooks/dead", ADMIN).json();
    assertThat(dead.getJsonObject("deliveries").getLong("delivered")).isZero();
    assertThat(dead.getJsonObject("deliveries").getString("lastError")).isNotBlank();
    JsonArray deadDeliveries = api.get("/api/v1/webhooks/dead/deliveries", ADMIN).items();
    assertThat(deadDeliveries)
        .isNotEmpty()
        .allSatisfy(d -> assertThat(((JsonObject) d).getString("state")).isIn("Pending", "Failed"));
    // a dead receiver is tried, and its other deliveries are held back with its backoff, not tried
    // one by one
    assertThat(deadDeliveries)
        .anySatisfy(d -> assertThat(((JsonObject) d).getInteger("attempts")).isPositive());
  }

  @Test
  void silentReceiversHoldOnlyTheirOwnSlotsAndAHealthyOneGetsEveryEventPromptly() throws Exception {
    try (java.net.ServerSocket silent =
        new java.net.ServerSocket(0, 200, java.net.InetAddress.getLoopbackAddress())) {
      List<java.net.Socket> held = new CopyOnWriteArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                while (!silent.isClosed()) {
                  try {
                    held.add(
                        silent
                            .accept()); // accepted, never answered: each attempt waits for the idle
                    // timeout
                  } catch (java.io.IOException e) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      for (int i = 0; i < 8; i++) {
        assertThat(
                create(
                        ADMIN,
                        "silent-" + i,
                        "http://127.0.0.1:" + silent.getLocalPort() + "/",
                        new JsonArray().add("io.olmstead.rollout.test.*"))
                    .status())
            .isEqualTo(201);
      }
      assertThat(
              create(
                      ADMIN,
                      "healthy",
                      receiverUrl("/healthy"),
                      new JsonArray().add("io.olmstead.rollout.test.*"))
                  .status())
          .isEqualTo(201);
      // 20 events straight into the history, as the engine writes them (one outbox row each, fanned
      // out per webhook)
      TestDatabase.execute(
          cp.database(),
          "INSERT INTO rollouts (id, subscription, target_version, strategy, state, "
              + "created_by) VALUES ('ro-fair', 'fair', '1.0.0', '{}', 'Progressing', 'test')");
      for (int i = 0; i < 20; i++) {
        TestDatabase.execute(
            cp.database(),
            "INSERT INTO rollout_history (rollout_id, kind, message, actor) VALUES "
                + "('ro-fair', 'TestEvent', 'event "
                + i
                + "', 'test')");
      }
      // 8 silent receivers x 20 events would fill all 16 slots for 10 s at a time without the
      // per-webhook cap
      await().atMost(Duration.ofSeconds(15)).until(() -> at("/healthy").size() >= 20);
      assertThat(at("/healthy"))
          .extracting(r -> r.json().getString("type"))
          .allMatch("io.olmstead.rollout.test.event"::equals);
      for (java.net.Socket socket : held) {
        socket.close();
      }
    }
  }

  @Test
  void badWebhooksAre422NamingTheFieldAndStoreNothing() {
    Map<JsonObject, String> cases =
        Map.of(
            new JsonObject()
                    .put("name", "b1")
                    .put("url", "ftp://example.com/")
                    .put("events", new JsonArray().add("*"))
                    .put("secret", SECRET),
                "/url",
            new JsonObject()
                    .put("name", "b2")
                    .put("url", "https://user:pw@example.com/")
                    .put("events", new JsonArray().add("*"))
                    .put("secret", SECRET),
                "/url",
            new JsonObject()
                    .put("name", "b3")
                    .put("url", "https://example.com/")
                    .put("events", new JsonArray().add("io.olmstead..x"))
                    .put("secret", SECRET),
                "/events/0",
            new JsonObject()
                    .put("name", "b4")
                    .put("url", "https://example.com/")
                    .put("events", new JsonArray().add("*"))
                    .put("secret", "short-secret"),
                "/secret");
    cases.forEach(
        (body, field) -> {
          Response response = api.json("POST", "/api/v1/webhooks", ADMIN, body);
          assertThat(response.status()).as(body + ": " + response.body()).isEqualTo(422);
          assertThat(response.json().getJsonArray("errors").getJsonObject(0).getString("field"))
              .isEqualTo(field);
        });
    assertThat(fx.count("SELECT count(*) FROM webhooks WHERE name LIKE 'b_'")).isZero();
    assertThat(create(ADMIN, "twice", "https://example.com/", new JsonArray().add("*")).status())
        .isEqualTo(201);
    assertThat(create(ADMIN, "twice", "https://example.com/", new JsonArray().add("*")).status())
        .isEqualTo(409);
    assertThat(
            api.json(
                    "POST",
                    "/api/v1/webhooks",
                    api.createToken(ADMIN, "wh-operator", "operator", List.of()),
                    new JsonObject()
                        .put("name", "op")
                        .put("url", "https://example.com/")
                        .put("events", new JsonArray().add("*"))
                        .put("secret", SECRET))
                .status())
        .isEqualTo(403);
  }

  @Test
  void aTeamScopedAdminSeesAndDeletesOnlyItsTeamsWebhooks() {
    assertThat(
            create(ADMIN, "fleet-wide", "https://example.com/", new JsonArray().add("*")).status())
        .isEqualTo(201);
    String blue = api.createToken(ADMIN, "blue-admin", "admin", List.of("blue"));
    Response mine = create(blue, "blue-hook", "https://example.com/blue", new JsonArray().add("*"));
    assertThat(mine.status()).as(mine.body()).isEqualTo(201);
    assertThat(mine.json().getString("team")).isEqualTo("blue");
    assertThat(api.get("/api/v1/webhooks?limit=500", blue).items())
        .extracting(w -> ((JsonObject) w).getString("name"))
        .containsExactly("blue-hook");
    assertThat(api.get("/api/v1/webhooks/fleet-wide", blue).status()).isEqualTo(404);
    assertThat(api.delete("/api/v1/webhooks/fleet-wide", blue).status()).isEqualTo(404);
    assertThat(api.delete("/api/v1/webhooks/blue-hook", blue).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/webhooks/fleet-wide", ADMIN).status()).isEqualTo(200);
  }

  @Test
  void twoTeamsHoldWebhooksOfTheSameNameAndNeitherCanSeeOrProbeTheOthers() {
    String red = api.createToken(ADMIN, "red-admin", "admin", List.of("red"));
    String green = api.createToken(ADMIN, "green-admin", "admin", List.of("green"));
    Response redHook = create(red, "alerts", "https://example.com/red", new JsonArray().add("*"));
    Response greenHook =
        create(green, "alerts", "https://example.com/green", new JsonArray().add("*"));
    assertThat(redHook.status()).as(redHook.body()).isEqualTo(201);
    assertThat(greenHook.status()).as(greenHook.body()).isEqualTo(201);
    assertThat(create(red, "alerts", "https://example.com/red", new JsonArray().add("*")).status())
        .isEqualTo(409);

    assertThat(api.get("/api/v1/webhooks/alerts", red).json().getString("url"))
        .isEqualTo("https://example.com/red");
    assertThat(api.get("/api/v1/webhooks/alerts", green).json().getString("url"))
        .isEqualTo("https://example.com/green");
    Response probe = api.get("/api/v1/webhooks/alerts?team=green", red);
    assertThat(probe.status()).isEqualTo(404);
    assertThat(probe.body()).doesNotContain("example.com/green");
    assertThat(api.get("/api/v1/webhooks/alerts/deliveries?team=green", red).status())
        .isEqualTo(404);
    assertThat(api.delete("/api/v1/webhooks/alerts?team=green", red).status()).isEqualTo(404);
    // a name only the other team uses is answered as one nobody uses
    assertThat(
            create(green, "green-only", "https://example.com/g", new JsonArray().add("*")).status())
        .isEqualTo(201);
    Response missing = api.get("/api/v1/webhooks/green-only", red);
    assertThat(missing.status()).isEqualTo(404);
    JsonObject nobodys = api.get("/api/v1/webhooks/no-such-hook", red).json();
    assertThat(missing.json().put("requestId", "").encode())
        .isEqualTo(nobodys.put("requestId", "").encode().replace("no-such-hook", "green-only"));

    // the unscoped admin sees both and picks one by team
    assertThat(api.get("/api/v1/webhooks?limit=500", ADMIN).items())
        .filteredOn(w -> "alerts".equals(((JsonObject) w).getString("name")))
        .extracting(w -> ((JsonObject) w).getString("team"))
        .contains("red", "green");
    assertThat(api.get("/api/v1/webhooks/alerts?team=green", ADMIN).json().getString("url"))
        .isEqualTo("https://example.com/green");
    assertThat(api.delete("/api/v1/webhooks/alerts", red).status()).isEqualTo(204);
    assertThat(api.get("/api/v1/webhooks/alerts", green).status()).isEqualTo(200);
  }
}
