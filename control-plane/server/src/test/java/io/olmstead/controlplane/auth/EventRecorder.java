package io.olmstead.controlplane.auth;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Follows {@code GET /events?follow=true} with one token and keeps every event it is sent. */
final class EventRecorder implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final List<JsonObject> seen = new ArrayList<>();
  private final HttpResponse<Stream<String>> response;

  EventRecorder(String baseUrl, String token) throws Exception {
    response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(baseUrl + "/api/v1/events?follow=true"))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("event stream answered " + response.statusCode());
    }
    Thread reader =
        new Thread(
            () -> {
              try {
                response
                    .body()
                    .filter(l -> l.startsWith("data: "))
                    .forEach(l -> events.add(new JsonObject(l.substring(6))));
              } catch (RuntimeException closed) {
                // the stream was closed by close()
              }
            },
            "sse-recorder");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Every event up to and including the first of {@code type} about {@code id} (at most 15 s);
   * events arrive in commit order, so all changes committed before that one have been delivered by
   * then.
   */
  List<JsonObject> until(String type, String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      JsonObject e = events.poll(100, TimeUnit.MILLISECONDS);
      if (e != null) {
        seen.add(e);
        if (type.equals(e.getString("type")) && id.equals(e.getString("id"))) {
          return List.copyOf(seen);
        }
      }
    }
    throw new AssertionError("no " + type + " event about " + id + " within 15 s; saw " + seen);
  }

  @Override
  public void close() {
    response.body().close();
  }
}
