package io.olmstead.controlplane.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.olmstead.controlplane.config.PrometheusSettings;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus client against the real server on loopback, and against servers that misbehave.
 */
class PrometheusClientIT {
  private static Vertx vertx;

  @BeforeAll
  static void setUp() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void tearDown() {
    vertx.close();
  }

  private static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static PrometheusClient client(String url, Map<String, String> more) {
    Map<String, String> env = new HashMap<>(more);
    env.put(PrometheusSettings.URL, url);
    env.putIfAbsent(PrometheusSettings.TIMEOUT, "1");
    return new PrometheusClient(vertx, PrometheusSettings.fromEnvironment(env));
  }

  private static HttpServer serve(Handler<HttpServerRequest> handler) throws Exception {
    return get(vertx.createHttpServer().requestHandler(handler).listen(0, "127.0.0.1"));
  }

  @Test
  void theRealServerMeasuresAndRefusesWhatItCannotParse() throws Exception {
    Assumptions.assumeTrue(
        LoopbackPrometheus.available(), "no /usr/bin/prometheus (apt-get install -y prometheus)");
    try (LoopbackPrometheus prometheus = LoopbackPrometheus.start(vertx)) {
      prometheus.set("sim-0001", 0.25);
      await().atMost(Duration.ofSeconds(30)).until(() -> prometheus.sees("sim-0001", 0.25));
      PrometheusClient client =
          client(prometheus.url().toString(), Map.of(PrometheusSettings.TIMEOUT, "10"));
      String query =
          PromQl.substitute(
              "max(canary_errors{cluster=\"$cluster\"})", Map.of("cluster", "sim-0001"));
      assertThat(get(client.query(query, Instant.now())))
          .isEqualTo(new QueryOutcome.Samples(List.of(0.25)));
      assertThat(get(client.query("canary_errors{cluster=\"nobody\"}", Instant.now())))
          .isEqualTo(new QueryOutcome.Samples(List.of()));
      assertThat(get(client.validate("sum(rate(canary_errors{cluster=\"$cluster\"}[5m])")))
          .isInstanceOfSatisfying(
              QueryOutcome.Refused.class, r -> assertThat(r.message()).contains("parse error"));
      assertThat(get(client.validate("sum(canary_errors{cluster=\"$cluster\"})")))
          .isInstanceOf(QueryOutcome.Samples.class);
      client.close();
    }
  }

  @Test
  void aServerThatNeverAnswersIsUnavailableAfterTheTimeout() throws Exception {
    HttpServer hung = serve(req -> {});
    PrometheusClient client = client("http://127.0.0.1:" + hung.actualPort(), Map.of());
    assertThat(get(client.query("up", Instant.now())))
        .isInstanceOfSatisfying(
            QueryOutcome.Unavailable.class, u -> assertThat(u.reason()).contains("1s"));
    client.close();
    hung.close();
  }

  @Test
  void garbageAndOversizedAnswersAreUnavailable() throws Exception {
    HttpServer garbage = serve(req -> req.response().end("<html>hello</html>"));
    HttpServer huge =
        serve(
            req ->
                req.response()
                    .end(
                        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
                            + "\"result\":["
                            + "{\"metric\":{},\"value\":[1,\"0\"]},".repeat(40_000)
                            + "]}}"));
    PrometheusClient g = client("http://127.0.0.1:" + garbage.actualPort(), Map.of());
    PrometheusClient h =
        client(
            "http://127.0.0.1:" + huge.actualPort(),
            Map.of(PrometheusSettings.MAX_RESPONSE, "65536"));
    assertThat(get(g.query("up", Instant.now()))).isInstanceOf(QueryOutcome.Unavailable.class);
    assertThat(get(h.query("up", Instant.now())))
        .isInstanceOfSatisfying(
            QueryOutcome.Unavailable.class, u -> assertThat(u.reason()).contains("65536 bytes"));
    assertThat(get(client("http://127.0.0.1:1", Map.of()).query("up", Instant.now())))
        .as("nothing listening")
        .isInstanceOf(QueryOutcome.Unavailable.class);
    g.close();
    h.close();
    garbage.close();
    huge.close();
  }

  @Test
  void sendsTheBearerTokenFromItsFile() throws Exception {
    Path token = Files.createTempFile("prometheus", ".token");
    Files.writeString(token, "s3cret-token\n");
    HttpServer guarded =
        serve(
            req -> {
              boolean ok = "Bearer s3cret-token".equals(req.getHeader("Authorization"));
              req.response()
                  .setStatusCode(ok ? 200 : 401)
                  .end(
                      ok
                          ? "{\"status\":\"success\",\"data\":{\"resultType\":"
                              + "\"scalar\",\"result\":[1,\"7\"]}}"
                          : "unauthorized");
            });
    PrometheusClient client =
        client(
            "http://127.0.0.1:" + guarded.actualPort(),
            Map.of(PrometheusSettings.TOKEN_FILE, token.toString()));
    assertThat(get(client.query("up", Instant.now())))
        .isEqualTo(new QueryOutcome.Samples(List.of(7.0)));
    PrometheusClient without = client("http://127.0.0.1:" + guarded.actualPort(), Map.of());
    assertThat(get(without.query("up", Instant.now())))
        .isInstanceOf(QueryOutcome.Unavailable.class);
    client.close();
    without.close();
    guarded.close();
    Files.delete(token);
  }
}
