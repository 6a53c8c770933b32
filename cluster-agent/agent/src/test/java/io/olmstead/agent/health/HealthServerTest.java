package io.olmstead.agent.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.olmstead.agent.config.ConfigException;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The agent's probes on a real HTTP server: liveness needs nothing, readiness names every failing
 * check.
 */
class HealthServerTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void livenessAnswersWhileReadinessNamesEachFailingCheckUntilItHolds() throws Exception {
    AtomicBoolean connected = new AtomicBoolean(false);
    ReadinessCheck channel =
        () -> connected.get() ? Optional.empty() : Optional.of("not connected");
    ReadinessCheck api = Optional::empty;
    HealthServer server =
        HealthServer.start(vertx, 0, Map.of("control-plane", channel, "kubernetes-api", api))
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);

    assertThat(get(server.port(), "/healthz").statusCode()).isEqualTo(200);
    HttpResponse<String> notReady = get(server.port(), "/readyz");
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.body()).isEqualTo("control-plane: not connected\n");

    connected.set(true);
    HttpResponse<String> ready = get(server.port(), "/readyz");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo("ready\n");
    assertThat(get(server.port(), "/other").statusCode()).isEqualTo(404);
  }

  @Test
  void theApiProbeReportsTheErrorAndLogsOnceAtInfoPerChange() {
    Logger logger = (Logger) LoggerFactory.getLogger(KubeApiProbe.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    logger.addAppender(logs);
    try {
      AtomicReference<RuntimeException> failure =
          new AtomicReference<>(new IllegalStateException("connection refused"));
      KubeApiProbe probe =
          new KubeApiProbe(
              vertx,
              () -> {
                RuntimeException e = failure.get();
                if (e != null) {
                  throw e;
                }
                return "v1.31";
              },
              "https://guest:6443",
              Duration.ofMillis(50));
      assertThat(probe.problem())
          .hasValueSatisfying(p -> assertThat(p).contains("has not answered yet"));
      probe.start();
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> probe.problem().map(p -> p.contains("connection refused")).orElse(false));
      assertThat(probe.problem().orElseThrow())
          .isEqualTo("cannot reach the Kubernetes API at https://guest:6443: connection refused");
      failure.set(null);
      await().atMost(Duration.ofSeconds(5)).until(() -> probe.problem().isEmpty());
      probe.stop();
      assertThat(logs.list)
          .filteredOn(e -> e.getLevel() == Level.INFO)
          .extracting(ILoggingEvent::getFormattedMessage)
          .containsExactly(
              "cannot reach the Kubernetes API at https://guest:6443: connection refused",
              "the Kubernetes API at https://guest:6443 is reachable again");
    } finally {
      logger.detachAppender(logs);
    }
  }

  @Test
  void aBadPortIsRefusedNamingTheSetting() throws ConfigException {
    assertThat(HealthSettings.fromMap(Map.of()).port()).isEqualTo(8081);
    assertThat(HealthSettings.fromMap(Map.of(HealthSettings.PORT, "0")).enabled()).isFalse();
    for (String bad : new String[] {"70000", "-1", "http"}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> HealthSettings.fromMap(Map.of(HealthSettings.PORT, bad)))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining(HealthSettings.PORT);
    }
  }
}
