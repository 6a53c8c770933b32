package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.http.ApiClient;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reasons an agent gives a rollout's cluster, on real PostgreSQL and the running engine: {@code
 * Failed (agent reason)} for a cluster whose agent reports a failed install of the target, {@code
 * Disconnected (since T)} for one whose agent went away, in {@code GET /rollouts/{id}/clusters};
 * and the failure's reason code on the {@code rollout.cluster} event of {@code GET /events} and in
 * the webhook payload of {@code cluster.failed}.
 */
class RolloutClusterReasonsIT {
  private static final String ADMIN = TestControlPlane.ADMIN_TOKEN;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String SEEN = "2026-11-27T08:00:00Z";
  private static TestControlPlane cp;
  private static RolloutFixtures fx;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(RolloutClusterReasonsIT.class);
    api = new ApiClient(cp);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
    fx.subscription("rs", "fleet=rs", "0.9.2");
    fx.update(
        "INSERT INTO clusters (name, labels, status, last_seen) SELECT n, '{\"fleet\":\"rs\"}', 'connected', "
            + "now() + interval '1 hour' FROM unnest(ARRAY['rs-1', 'rs-2', 'rs-3']) n");
    fx.update(
        "INSERT INTO subscription_status (subscription, cluster, installed_version, target_version, phase, seq) "
            + "SELECT 'rs', n, '0.9.2', '0.9.2', 'Succeeded', 1 FROM unnest(ARRAY['rs-1', 'rs-2', 'rs-3']) n");
    // a webhook, so that the history's transitions become webhook events (its receiver is never
    // reached)
    fx.update(
        "INSERT INTO webhooks (name, url, events, secret, created_by) VALUES ('ops', 'http://127.0.0.1:9/x', "
            + "'{io.olmstead.rollout.cluster.*}', 's3cret-s3cret-s3cret', 'test')");
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void aFailedInstallAndADisconnectedAgentAreTheClustersReasonsAndTheFailureIsAnEventWithItsCode()
      throws Exception {
    BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
    HttpResponse<Stream<String>> stream =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/events?follow=true"))
                .header("Authorization", "Bearer " + ADMIN)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    Thread reader =
        new Thread(
            () -> {
              try {
                stream
                    .body()
                    .filter(l -> l.startsWith("data: "))
                    .forEach(l -> events.add(new JsonObject(l.substring(6))));
              } catch (RuntimeException e) {
                // closed at the end of the test
              }
            },
            "sse-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      ApiClient.Response created =
          api.json(
              "POST",
              "/api/v1/rollouts",
              ADMIN,
              "{\"subscription\":\"rs\","
                  + "\"targetVersion\":\"0.9.4\",\"strategy\":{\"batchSize\":3,\"maxUnavailable\":10,\"maxFailures\":3,"
                  + "\"preflight\":\"Off\",\"progressDeadlineSeconds\":3600}}");
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      String id = created.json().getString("id");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM rollout_clusters WHERE "
                              + "rollout_id = ? AND step = 'Progressing'",
                          id)
                      == 3);

      // rs-1's agent fails to install the target; rs-2's agent goes away
      fx.update(
          "UPDATE subscription_status SET target_version = '0.9.4', phase = 'Failed', reason = "
              + "'InstallCheckFailed', message = 'deployment etcd-operator not ready', seq = 2, updated_at = now() "
              + "WHERE subscription = 'rs' AND cluster = 'rs-1'");
      fx.update(
          "UPDATE clusters SET status = 'disconnected', last_seen = ?::timestamptz WHERE name = 'rs-2'",
          SEEN);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> "Failed".equals(clusters(id).get("rs-1").getString("state")));

      Map<String, JsonObject> clusters = clusters(id);
      JsonObject failed = clusters.get("rs-1").getJsonObject("reason");
      assertThat(failed.getString("code")).isEqualTo("Failed");
      assertThat(failed.getString("subject")).isEqualTo("InstallCheckFailed");
      assertThat(failed.getString("message"))
          .isEqualTo("Failed (InstallCheckFailed: deployment etcd-operator not ready)");
      assertThat(failed.getString("at")).isNotNull();
      assertThat(clusters.get("rs-1").getString("message")).isEqualTo(failed.getString("message"));
      JsonObject away = clusters.get("rs-2").getJsonObject("reason");
      assertThat(away.getString("code")).isEqualTo("Disconnected");
      assertThat(Instant.parse(away.getString("at"))).isEqualTo(Instant.parse(SEEN));
      assertThat(away.getString("message"))
          .isEqualTo("Disconnected (since " + Instant.parse(SEEN) + ")");
      assertThat(clusters.get("rs-3").getValue("reason")).as("approved and installing").isNull();

      // the event stream: a rollout.cluster event names the cluster, the history kind and the
      // reason
      JsonObject event = null;
      long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (event == null && System.nanoTime() < until) {
        JsonObject e = events.poll(1, TimeUnit.SECONDS);
        if (e != null
            && "rollout.cluster".equals(e.getString("type"))
            && "rs-1".equals(e.getString("cluster"))) {
          event = e;
        }
      }
      assertThat(event).as("a rollout.cluster event about rs-1").isNotNull();
      assertThat(event.getString("id")).isEqualTo(id);
      assertThat(event.getString("kind")).isEqualTo("ClusterFailed");
      assertThat(event.getJsonObject("reason").getString("code")).isEqualTo("Failed");
      assertThat(event.getJsonObject("reason").getString("at")).isNotNull();
      assertThat(event.getJsonObject("reason").containsKey("subject")).isTrue();

      // the webhook payload of io.olmstead.rollout.cluster.failed carries the same reason
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  fx.count(
                          "SELECT count(*) FROM webhook_deliveries WHERE "
                              + "type = 'io.olmstead.rollout.cluster.failed' AND subject = 'rs-1'")
                      == 1);
      JsonObject body =
          new JsonObject(
              (String)
                  fx.query(
                          "SELECT body FROM webhook_deliveries WHERE type = "
                              + "'io.olmstead.rollout.cluster.failed' AND subject = 'rs-1'")
                      .get(0)
                      .get("body"));
      JsonObject reason = body.getJsonObject("data").getJsonObject("reason");
      assertThat(reason.getString("code")).isEqualTo("Failed");
      assertThat(reason.getString("at")).isEqualTo(event.getJsonObject("reason").getString("at"));
      JsonObject approved =
          new JsonObject(
              (String)
                  fx.query(
                          "SELECT body FROM webhook_deliveries WHERE type = "
                              + "'io.olmstead.rollout.cluster.approved' AND subject = 'rs-1'")
                      .get(0)
                      .get("body"));
      assertThat(approved.getJsonObject("data").getValue("reason"))
          .as("an approval holds nothing")
          .isNull();
    } finally {
      stream.body().close();
    }
  }

  private static Map<String, JsonObject> clusters(String id) {
    return api.get("/api/v1/rollouts/" + id + "/clusters", ADMIN).items().stream()
        .map(JsonObject.class::cast)
        .collect(Collectors.toMap(c -> c.getString("name"), c -> c));
  }
}
