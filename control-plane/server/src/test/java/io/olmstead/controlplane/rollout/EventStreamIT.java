package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /events?follow=true}: cluster, subscription and rollout changes arrive as Server-Sent
 * Events; a stream lives only as long as its API token, and one token holds a bounded number of
 * streams.
 */
class EventStreamIT {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
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
    BlockingQueue<JsonObject> events = OpenStream.open(TestControlPlane.ADMIN_TOKEN).events;

    String token = fx.enrollmentToken(1, "{\"fleet\":\"ev\"}");
    HttpResponse<String> enrolled =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/agent/enroll"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"clusterName\":\"ev-1\",\"facts\":{\"kubernetesVersion\":"
                            + "\"v1.30.0\"}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(enrolled.statusCode()).as(enrolled.body()).isEqualTo(201);
    expect(events, "cluster", "ev-1");

    assertThat(
            call(
                    "PATCH",
                    "/clusters/ev-1",
                    "application/merge-patch+json",
                    "{\"labels\":{\"tier\":\"gold\"}}")
                .statusCode())
        .isEqualTo(200);
    expect(events, "cluster", "ev-1");

    fx.subscription("ev-sub", "fleet=ev", "0.9.2");
    expect(events, "subscription", "ev-sub");

    HttpResponse<String> rollout =
        call(
            "POST",
            "/rollouts",
            "application/json",
            "{\"subscription\":\"ev-sub\"," + "\"targetVersion\":\"0.9.4\"}");
    assertThat(rollout.statusCode()).as(rollout.body()).isEqualTo(201);
    expect(events, "rollout", new JsonObject(rollout.body()).getString("id"));

    assertThat(
            call(
                    "POST",
                    "/rollouts/" + new JsonObject(rollout.body()).getString("id") + "/abort",
                    null,
                    null)
                .statusCode())
        .isEqualTo(200);
    assertThat(call("DELETE", "/clusters/ev-1", null, null).statusCode()).isEqualTo(204);
    expect(events, "cluster", "ev-1");
  }

  @Test
  void revokingATokenEndsItsStreamAtOnceAndNoLaterEventReachesIt() throws Exception {
    JsonObject viewer = createToken("sse-revoked");
    OpenStream open = OpenStream.open(viewer.getString("token"));
    // the same grants on a token that stays: it sees the event below, so the revoked stream would
    // have seen it too
    OpenStream control = OpenStream.open(createToken("sse-kept").getString("token"));

    HttpResponse<String> revoked = call("DELETE", "/tokens/" + viewer.getString("id"), null, null);
    assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(204);
    // an event committed right after the revocation, long before the periodic recheck
    // (RECHECK_MILLIS) could end
    // the stream: "at once" is that the revocation ended it before this event was sent, whatever
    // the machine's speed
    fx.subscription("sse-after-revoke", "fleet=sse", "0.9.2");

    open.ended.get(10, TimeUnit.SECONDS);
    expect(control.events, "subscription", "sse-after-revoke");
    assertThat(open.events).noneMatch(e -> "sse-after-revoke".equals(e.getString("id")));
    control.close();
  }

  @Test
  void aStreamWhoseTokenChangedBehindTheServersBackIsClosedByThePeriodicRecheck() throws Exception {
    JsonObject viewer = createToken("sse-changed");
    OpenStream open = OpenStream.open(viewer.getString("token"));
    // no notification: as if the change were made where none is sent (or the notification was
    // missed)
    assertThat(
            fx.update(
                "UPDATE api_tokens SET teams = ARRAY['payments'] WHERE id = ?::uuid",
                viewer.getString("id")))
        .isEqualTo(1);
    // nothing else ends it: no notification was sent and the token is still live, only its grant
    // changed
    open.ended.get(10, TimeUnit.SECONDS);
    assertThat(open.ended).isDone();
  }

  @Test
  void aTokenHoldsAtMostSixteenStreamsAndTheNextIsRefusedWith429() throws Exception {
    String secret = createToken("sse-many").getString("token");
    List<HttpResponse<InputStream>> streams = new ArrayList<>();
    try {
      for (int i = 0; i < RolloutEvents.MAX_STREAMS_PER_TOKEN; i++) {
        HttpResponse<InputStream> s = raw(secret);
        streams.add(s);
        assertThat(s.statusCode()).as("stream %d", i + 1).isEqualTo(200);
      }
      HttpResponse<InputStream> refused = raw(secret);
      streams.add(refused);
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("content-type")).hasValue("application/problem+json");
      assertThat(new JsonObject(new String(refused.body().readAllBytes())).getString("code"))
          .isEqualTo("too-many-requests");

      HttpResponse<InputStream> other = raw(TestControlPlane.ADMIN_TOKEN);
      streams.add(other);
      assertThat(other.statusCode())
          .as("another token is not limited by this one's streams")
          .isEqualTo(200);
    } finally {
      for (HttpResponse<InputStream> s : streams) {
        s.body().close();
      }
    }
  }

  /**
   * Waits (at most 10 s) for an event of {@code type} about {@code id}, dropping others before it.
   */
  private static void expect(BlockingQueue<JsonObject> events, String type, String id)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      JsonObject e = events.poll(200, TimeUnit.MILLISECONDS);
      if (e != null && type.equals(e.getString("type")) && id.equals(e.getString("id"))) {
        return;
      }
    }
    throw new AssertionError("no " + type + " event about " + id + " within 10 s");
  }

  @Test
  void followFalseIsRefusedNamingTheParameterSinceTheStreamKeepsNoHistory() throws Exception {
    HttpResponse<String> refused = call("GET", "/events?follow=false", null, null);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.headers().firstValue("content-type")).hasValue("application/problem+json");
    assertThat(refused.body()).contains("follow");
  }

  private static HttpResponse<String> call(
      String method, String path, String contentType, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1" + path))
            .header("Authorization", "Bearer " + TestControlPlane.ADMIN_TOKEN);
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return HTTP.send(
        b.method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonObject createToken(String name) throws Exception {
    HttpResponse<String> created =
        call(
            "POST",
            "/tokens",
            "application/json",
            "{\"name\":\"" + name + "\",\"role\":\"viewer\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return new JsonObject(created.body());
  }

  private static HttpResponse<InputStream> raw(String token) throws Exception {
    return HTTP.send(follow(token), HttpResponse.BodyHandlers.ofInputStream());
  }

  private static HttpRequest follow(String token) {
    return HttpRequest.newBuilder(URI.create(cp.baseUrl() + "/api/v1/events?follow=true"))
        .header("Authorization", "Bearer " + token)
        .build();
  }

  /** An open stream read on its own thread: the events it got, and whether the server ended it. */
  private static final class OpenStream {
    final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
    final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final HttpResponse<Stream<String>> response;

    private OpenStream(HttpResponse<Stream<String>> response) {
      this.response = response;
    }

    static OpenStream open(String token) throws Exception {
      HttpResponse<Stream<String>> response =
          HTTP.send(follow(token), HttpResponse.BodyHandlers.ofLines());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("content-type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
      OpenStream stream = new OpenStream(response);
      Thread reader =
          new Thread(
              () -> {
                try {
                  response
                      .body()
                      .filter(l -> l.startsWith("data: "))
                      .forEach(l -> stream.events.add(new JsonObject(l.substring(6))));
                } catch (RuntimeException e) {
                  // a reset connection ends the stream as well
                }
                stream.ended.complete(null);
              },
              "sse-reader");
      reader.setDaemon(true);
      reader.start();
      return stream;
    }

    void close() {
      response.body().close();
    }
  }
}
