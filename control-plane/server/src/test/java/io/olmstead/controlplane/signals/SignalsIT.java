package io.olmstead.controlplane.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.SignalSettings;
import io.olmstead.controlplane.config.WebhookSettings;
import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.http.ApiClient.Response;
import io.olmstead.controlplane.rollout.RolloutFixtures;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.olmstead.controlplane.webhooks.Signatures;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Subscription signals and the non-rollout webhook events end to end: catalog revisions uploaded
 * through the API, agents' reports written as the gateway writes them, webhooks of two teams on a
 * loopback receiver.
 */
class SignalsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final String SECRET = "a-shared-secret-of-some-length";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final List<Received> RECEIVED = new CopyOnWriteArrayList<>();
  private static TestControlPlane cp;
  private static ApiClient api;
  private static RolloutFixtures fx;
  private static Vertx vertx;
  private static HttpServer receiver;
  private static String blue;
  private static String red;

  private record Received(String path, String signature, String body) {
    JsonObject event() {
      return new JsonObject(body);
    }

    boolean signedWith(String secret) {
      return Signatures.sign(secret, body.getBytes(StandardCharsets.UTF_8)).equals(signature);
    }

    String type() {
      return event().getString("type");
    }

    JsonObject data() {
      return event().getJsonObject("data");
    }
  }

  @BeforeAll
  static void start() throws Exception {
    cp =
        TestControlPlane.start(
            TestDatabase.create(SignalsIT.class),
            Map.of(
                WebhookSettings.ALLOW_PRIVATE,
                "true",
                SignalSettings.INTERVAL,
                "300ms",
                SignalSettings.STUCK_AFTER,
                "2s",
                SignalSettings.DISCONNECTED_AFTER,
                "1s"));
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
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
                              String text = body.toString(StandardCharsets.UTF_8);
                              RECEIVED.add(
                                  new Received(
                                      request.path(), request.getHeader(Signatures.HEADER), text));
                              request.response().setStatusCode(204).end();
                            }))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    blue = api.createToken(ADMIN, "blue-admin", "admin", List.of("blue"));
    red = api.createToken(ADMIN, "red-admin", "admin", List.of("red"));
    assertThat(api.json("PUT", "/api/v1/catalogs/sig", ADMIN, new JsonObject()).status())
        .isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    cp.close();
    vertx.close();
  }

  private static void webhook(String token, String name, String... events) {
    Response r =
        api.json(
            "POST",
            "/api/v1/webhooks",
            token,
            new JsonObject()
                .put("name", name)
                .put("url", "http://127.0.0.1:" + receiver.actualPort() + "/" + name)
                .put("events", new JsonArray(List.of((Object[]) events)))
                .put("secret", SECRET));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }

  /**
   * Waits for {@code count} more completed evaluation passes and for every event they stored to be
   * delivered: an event sent twice would then have been received.
   */
  private static void evaluationsPass(int count) {
    SignalEvaluator evaluator = cp.controlPlane().signals();
    long from = evaluator.completedPasses();
    await().atMost(Duration.ofSeconds(20)).until(() -> evaluator.completedPasses() >= from + count);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                fx.count(
                        "SELECT (SELECT count(*) FROM webhook_events)"
                            + " + (SELECT count(*) FROM webhook_deliveries WHERE state = 'Pending')")
                    == 0);
  }

  private static List<Received> at(String path, String type) {
    return RECEIVED.stream()
        .filter(r -> r.path().equals("/" + path) && r.type().equals(type))
        .toList();
  }

  /**
   * What {@code path} got of {@code type} about one subscription (other tests' subscriptions share
   * the team).
   */
  private static List<Received> about(String path, String type, String subscription) {
    return at(path, type).stream()
        .filter(r -> subscription.equals(r.data().getString("subscription")))
        .toList();
  }

  private static String bundle(String version) {
    return "{\"schema\":\"olm.bundle\",\"package\":\"op\",\"name\":\"op.v"
        + version
        + "\",\"image\":\"quay.io/e/op:"
        + version
        + "\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"op\",\"version\":\""
        + version
        + "\"}}]}";
  }

  /**
   * Package op, channel stable-v2.0 with {@code versions} in a replaces chain, and what else is
   * given.
   */
  private static void upload(List<String> versions, String... more) {
    StringBuilder entries = new StringBuilder();
    for (int i = 0; i < versions.size(); i++) {
      entries
          .append(i == 0 ? "" : ",")
          .append("{\"name\":\"op.v")
          .append(versions.get(i))
          .append('"')
          .append(i == 0 ? "" : ",\"replaces\":\"op.v" + versions.get(i - 1) + "\"")
          .append('}');
    }
    StringBuilder fbc =
        new StringBuilder(
            "{\"schema\":\"olm.package\",\"name\":\"op\",\"defaultChannel\":\"stable-v2.0\"}\n"
                + "{\"schema\":\"olm.channel\",\"package\":\"op\",\"name\":\"stable-v2.0\",\"entries\":["
                + entries
                + "]}\n");
    versions.forEach(v -> fbc.append(bundle(v)).append('\n'));
    for (String line : more) {
      fbc.append(line).append('\n');
    }
    Response r =
        api.send(
            "POST",
            "/api/v1/catalogs/sig/revisions",
            ADMIN,
            "application/x-ndjson",
            fbc.toString().getBytes(StandardCharsets.UTF_8),
            Map.of());
    // 200: the same content as the current revision (another test's upload)
    assertThat(r.status()).as(r.body()).isIn(200, 201);
  }

  private static void subscription(String name, String team, String pin, String approval) {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscriptions (name, catalog, package, channel, namespace, "
            + "placement_selector, version_kind, version_value, approval, created_by, team) VALUES ('"
            + name
            + "', 'sig', "
            + "'op', 'stable-v2.0', 'op', 'fleet=sig', 'pin', '"
            + pin
            + "', '"
            + approval
            + "', 'test', '"
            + team
            + "')");
  }

  private static void cluster(String name, String team, String status, String lastSeen) {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO clusters (name, labels, status, last_seen) VALUES ('"
            + name
            + "', '{\"fleet\":\"sig\",\"olmstead.io/team\":\""
            + team
            + "\"}', '"
            + status
            + "', "
            + lastSeen
            + ")");
  }

  /** A status report as the agent gateway writes it. */
  private static void report(
      String subscription,
      String cluster,
      String version,
      String phase,
      String conditions,
      int seq) {
    TestDatabase.execute(
        cp.database(),
        "INSERT INTO subscription_status AS s (subscription, cluster, installed_bundle, "
            + "installed_version, phase, conditions, seq) VALUES ('"
            + subscription
            + "', '"
            + cluster
            + "', "
            + (version == null ? "NULL, NULL" : "'op.v" + version + "', '" + version + "'")
            + ", '"
            + phase
            + "', '"
            + conditions
            + "', "
            + seq
            + ") ON CONFLICT (subscription, cluster) DO UPDATE SET phase = EXCLUDED.phase, "
            + "installed_bundle = EXCLUDED.installed_bundle, installed_version = EXCLUDED.installed_version, "
            + "conditions = EXCLUDED.conditions, seq = EXCLUDED.seq, updated_at = now()");
  }

  private static JsonObject signals(String subscription) {
    Response r = api.get("/api/v1/subscriptions/" + subscription + "/status", ADMIN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().getJsonObject("signals");
  }

  private static String metrics() {
    return api.get("/metrics", null).body();
  }

  @Test
  void aRevisionWithAHigherVersionAndDeprecationsRaisesSignalsMetricsEventsAndWebhooksOnce()
      throws Exception {
    webhook(blue, "blue-sub", "io.olmstead.subscription.*");
    webhook(red, "red-sub", "io.olmstead.subscription.*");
    upload(List.of("2.0.0", "2.0.2"));
    subscription("up", "blue", "2.0.2", "Automatic");
    cluster("up-1", "blue", "connected", "now()");
    cluster("up-2", "blue", "connected", "now()");
    report("up", "up-1", "2.0.2", "Succeeded", "[]", 1);
    report("up", "up-2", "2.0.2", "Succeeded", "[]", 1);
    await().atMost(Duration.ofSeconds(20)).until(() -> signals("up") != null);
    assertThat(signals("up").getValue("upgradesAvailable")).isNull();
    BlockingQueue<JsonObject> stream =
        follow(api.createToken(ADMIN, "blue-viewer", "viewer", List.of("blue")));
    BlockingQueue<JsonObject> redStream =
        follow(api.createToken(ADMIN, "red-viewer", "viewer", List.of("red")));

    upload(List.of("2.0.0", "2.0.2", "2.0.4"));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> signals("up").getJsonObject("upgradesAvailable") != null);
    JsonObject up = signals("up").getJsonObject("upgradesAvailable");
    assertThat(up.getString("allowed")).isEqualTo("2.0.2");
    assertThat(up.getString("latest")).isEqualTo("2.0.4");
    assertThat(up.getJsonArray("versions").getList()).containsExactly("2.0.4");
    assertThat(up.getLong("clusters")).isEqualTo(2L);
    assertThat(metrics())
        .contains(
            "olmstead_subscription_upgrades_available{subscription=\"up\"} 1.0",
            "olmstead_subscription_upgradable_clusters{subscription=\"up\"} 2.0");
    JsonObject event = stream.poll(10, TimeUnit.SECONDS);
    while (event != null && !"subscription.signals".equals(event.getString("type"))) {
      event = stream.poll(10, TimeUnit.SECONDS);
    }
    assertThat(event).as("a subscription.signals event on the team's stream").isNotNull();
    assertThat(event.getString("id")).isEqualTo("up");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !about("blue-sub", SignalEvents.UPGRADES_AVAILABLE, "up").isEmpty());
    Received delivered = about("blue-sub", SignalEvents.UPGRADES_AVAILABLE, "up").get(0);
    assertThat(delivered.data().getString("subscription")).isEqualTo("up");
    assertThat(delivered.data().getString("latest")).isEqualTo("2.0.4");
    assertThat(delivered.event().getString("specversion")).isEqualTo("1.0");
    assertThat(delivered.signedWith(SECRET)).isTrue();

    // deprecation of the installed bundle and the channel, and a newer channel
    upload(
        List.of("2.0.0", "2.0.2", "2.0.4"),
        "{\"schema\":\"olm.channel\",\"package\":\"op\",\"name\":\"stable-v2.1\",\"entries\":[{\"name\":\"op.v2.1.0\"}]}",
        bundle("2.1.0"),
        "{\"schema\":\"olm.deprecations\",\"package\":\"op\",\"entries\":["
            + "{\"reference\":{\"schema\":\"olm.channel\",\"name\":\"stable-v2.0\"},\"message\":\"use stable-v2.1\"},"
            + "{\"reference\":{\"schema\":\"olm.bundle\",\"name\":\"op.v2.0.2\"},\"message\":\"CVE in 2.0.2\"}]}");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !signals("up").getJsonArray("deprecations").isEmpty());
    JsonObject now = signals("up");
    assertThat(now.getJsonArray("deprecations"))
        .extracting(
            d ->
                ((JsonObject) d).getString("scope")
                    + "/"
                    + ((JsonObject) d).getString("name")
                    + "/"
                    + ((JsonObject) d).getLong("clusters"))
        .containsExactly("channel/stable-v2.0/2", "bundle/op.v2.0.2/2");
    assertThat(now.getString("newerChannel")).isEqualTo("stable-v2.1");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !about("blue-sub", SignalEvents.DEPRECATED, "up").isEmpty());
    assertThat(metrics())
        .contains(
            "olmstead_subscription_deprecations{subscription=\"up\"} 2.0",
            "olmstead_subscription_newer_channel{subscription=\"up\"} 1.0");

    // many evaluations later: each event was sent once, and never to the other team
    evaluationsPass(5);
    assertThat(about("blue-sub", SignalEvents.UPGRADES_AVAILABLE, "up")).hasSize(1);
    assertThat(about("blue-sub", SignalEvents.DEPRECATED, "up")).hasSize(1);
    assertThat(RECEIVED).noneMatch(r -> r.path().equals("/red-sub"));
    assertThat(redStream).noneMatch(e -> "up".equals(e.getString("id")));
  }

  @Test
  void aClusterShortOfSucceededBeyondTheThresholdIsStuckOnce() throws Exception {
    webhook(blue, "blue-stuck", SignalEvents.STUCK);
    upload(List.of("2.0.0", "2.0.2"));
    subscription("st", "blue", "2.0.2", "Automatic");
    cluster("st-1", "blue", "connected", "now()");
    cluster("st-2", "blue", "connected", "now()");
    report("st", "st-1", "2.0.2", "Succeeded", "[]", 1);
    report("st", "st-2", "2.0.0", "Progressing", "[]", 1);
    await().atMost(Duration.ofSeconds(20)).until(() -> signals("st") != null);
    // still under the 2 s threshold at first; a later report of the same phase keeps the clock
    // running
    report("st", "st-2", "2.0.0", "Failed", "[]", 2);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> signals("st").getJsonObject("stuckClusters").getLong("count") == 1);
    assertThat(signals("st").getJsonObject("stuckClusters").getJsonArray("clusters").getList())
        .containsExactly("st-2");
    assertThat(metrics()).contains("olmstead_subscription_stuck_clusters{subscription=\"st\"} 1.0");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !about("blue-stuck", SignalEvents.STUCK, "st").isEmpty());
    assertThat(
            about("blue-stuck", SignalEvents.STUCK, "st")
                .get(0)
                .data()
                .getJsonArray("clusters")
                .getList())
        .containsExactly("st-2");
    evaluationsPass(3);
    assertThat(about("blue-stuck", SignalEvents.STUCK, "st")).hasSize(1);

    // back to Succeeded: not stuck any more
    report("st", "st-2", "2.0.2", "Succeeded", "[]", 3);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> signals("st").getJsonObject("stuckClusters").getLong("count") == 0);
  }

  @Test
  void approvalWaitingGoesToTheSubscriptionsTeamOnlyAndOncePerBundle() throws Exception {
    webhook(blue, "blue-approvals", "io.olmstead.approval.*");
    webhook(red, "red-approvals", "io.olmstead.approval.*");
    upload(List.of("2.0.0", "2.0.2"));
    subscription("ap", "blue", "2.0.2", "Manual");
    cluster("ap-1", "blue", "connected", "now()");
    String waiting =
        "[{\"type\":\"RequiresApproval\",\"status\":\"True\",\"message\":\"op.v2.0.2\"}]";
    report("ap", "ap-1", null, "RequiresApproval", waiting, 1);
    report("ap", "ap-1", null, "RequiresApproval", waiting, 2); // the same wait reported again
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !at("blue-approvals", "io.olmstead.approval.waiting").isEmpty());
    Received r = at("blue-approvals", "io.olmstead.approval.waiting").get(0);
    assertThat(r.data().getString("cluster")).isEqualTo("ap-1");
    assertThat(r.data().getString("subscription")).isEqualTo("ap");
    assertThat(r.data().getString("bundle")).isEqualTo("op.v2.0.2");
    assertThat(r.signedWith(SECRET)).isTrue();
    evaluationsPass(3);
    assertThat(at("blue-approvals", "io.olmstead.approval.waiting")).hasSize(1);
    assertThat(RECEIVED).noneMatch(x -> x.path().equals("/red-approvals"));
  }

  @Test
  void aLongDisconnectionIsAnnouncedOnceToTheClustersTeamAndTheReconnectionFollows()
      throws Exception {
    webhook(blue, "blue-clusters", "io.olmstead.cluster.*");
    webhook(red, "red-clusters", "io.olmstead.cluster.*");
    cluster("dc-blue", "blue", "disconnected", "now() - interval '1 hour'");
    cluster("dc-red", "red", "disconnected", "now() - interval '1 hour'");
    cluster("dc-fresh", "blue", "connected", "now()");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () ->
                !at("blue-clusters", Disconnections.DISCONNECTED).isEmpty()
                    && !at("red-clusters", Disconnections.DISCONNECTED).isEmpty());
    evaluationsPass(3);
    assertThat(at("blue-clusters", Disconnections.DISCONNECTED))
        .extracting(x -> x.data().getString("cluster"))
        .containsExactly("dc-blue");
    assertThat(at("red-clusters", Disconnections.DISCONNECTED))
        .extracting(x -> x.data().getString("cluster"))
        .containsExactly("dc-red");

    TestDatabase.execute(
        cp.database(),
        "UPDATE clusters SET status = 'connected', last_seen = now() " + "WHERE name = 'dc-blue'");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !at("blue-clusters", Disconnections.RECONNECTED).isEmpty());
    assertThat(at("blue-clusters", Disconnections.RECONNECTED).get(0).data().getString("cluster"))
        .isEqualTo("dc-blue");
    assertThat(at("red-clusters", Disconnections.RECONNECTED)).isEmpty();
    // disconnected again: a new disconnection, announced again
    TestDatabase.execute(
        cp.database(),
        "UPDATE clusters SET status = 'disconnected', last_seen = now() "
            + "WHERE name = 'dc-blue'");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> at("blue-clusters", Disconnections.DISCONNECTED).size() == 2);
  }

  /** The events a token's {@code GET /events} stream delivers, read on a thread of its own. */
  private static BlockingQueue<JsonObject> follow(String token) throws Exception {
    HttpResponse<Stream<String>> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/events?follow=true"))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    assertThat(response.statusCode()).isEqualTo(200);
    BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                response
                    .body()
                    .filter(l -> l.startsWith("data: "))
                    .forEach(l -> events.add(new JsonObject(l.substring(6))));
              } catch (RuntimeException e) {
                // the stream ends with the control plane
              }
            },
            "sse-reader");
    reader.setDaemon(true);
    reader.start();
    return events;
  }
}
