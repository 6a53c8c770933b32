package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /events?follow=true}: cluster, subscription and rollout changes arrive as Server-Sent Events. */
class EventStreamIT {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static TestControlPlane cp;
  private static RolloutFixtures fx;

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(EventStreamIT.class);
    fx = new RolloutFixtures(cp.database());
    fx.catalog();
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  @Test
  void enrolmentRelabellingDeletionSubscriptionsAndRolloutsAreStreamed() throws Exception {
    BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
    HttpResponse<Stream<String>> stream = HTTP.send(HttpRequest.newBuilder(URI.create(cp.baseUrl()
            + "/api/v1/events?follow=true")).header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN).build(),
        HttpResponse.BodyHandlers.ofLines());
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t)
        .startsWith("text/event-stream"));
    Thread reader = new Thread(() -> stream.body().filter(l -> l.startsWith("data: "))
        .forEach(l -> events.add(new JsonObject(l.substring(6)))), "sse-reader");
    reader.setDaemon(true);
    reader.start();

    String token = fx.enrollmentToken(1, "{\"fleet\":\"ev\"}");
    HttpResponse<String> enrolled = HTTP.send(HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/agent/enroll"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"clusterName\":\"ev-1\",\"facts\":{\"kubernetesVersion\":"
            + "\"v1.30.0\"}}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(enrolled.statusCode()).as(enrolled.body()).isEqualTo(201);
    expect(events, "cluster", "ev-1");

    assertThat(call("PATCH", "/clusters/ev-1", "application/merge-patch+json", "{\"labels\":{\"tier\":\"gold\"}}")
        .statusCode()).isEqualTo(200);
    expect(events, "cluster", "ev-1");

    fx.subscription("ev-sub", "fleet=ev", "0.9.2");
    expect(events, "subscription", "ev-sub");

    HttpResponse<String> rollout = call("POST", "/rollouts", "application/json", "{\"subscription\":\"ev-sub\","
        + "\"targetVersion\":\"0.9.4\"}");
    assertThat(rollout.statusCode()).as(rollout.body()).isEqualTo(201);
    expect(events, "rollout", new JsonObject(rollout.body()).getString("id"));

    assertThat(call("POST", "/rollouts/" + new JsonObject(rollout.body()).getString("id") + "/abort", null, null)
        .statusCode()).isEqualTo(200);
    assertThat(call("DELETE", "/clusters/ev-1", null, null).statusCode()).isEqualTo(204);
    expect(events, "cluster", "ev-1");
  }

  /** Waits (at most 10 s) for an event of {@code type} about {@code id}, dropping others before it. */
  private static void expect(BlockingQueue<JsonObject> events, String type, String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      JsonObject e = events.poll(200, TimeUnit.MILLISECONDS);
      if (e != null && type.equals(e.getString("type")) && id.equals(e.getString("id"))) {
        return;
      }
    }
    throw new AssertionError("no " + type + " event about " + id + " within 10 s");
  }

  private static HttpResponse<String> call(String method, String path, String contentType, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1" + path))
        .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN);
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return HTTP.send(b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
