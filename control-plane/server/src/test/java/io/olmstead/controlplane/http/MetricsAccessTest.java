package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.olmstead.controlplane.config.ConfigException;
import io.olmstead.controlplane.config.ControlPlaneConfig;
import io.olmstead.controlplane.config.MetricsSettings;
import io.olmstead.controlplane.db.DatabaseReadiness;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} is open by default; with {@code OLMSTEAD_METRICS_TOKEN_FILE} only the file's
 * bearer token reads it, every other caller gets a 401 problem, and the configuration never prints
 * the token.
 */
class MetricsAccessTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String TOKEN = "metrics-scrape-token-0123456789";
  @TempDir Path dir;
  private Vertx vertx;

  @AfterEach
  void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  private int serve(MetricsSettings access) throws Exception {
    vertx = Vertx.vertx();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.counter("olmstead.probe").increment();
    Router router = Router.router(vertx);
    // /readyz is not called here: its readiness check never runs
    new OpsRoutes(
            new DatabaseReadiness(vertx, null, "44"),
            registry,
            StartupGate.open(),
            access,
            () -> null)
        .mount(router);
    HttpServer server =
        vertx
            .createHttpServer()
            .requestHandler(router)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    return server.actualPort();
  }

  private static HttpResponse<String> scrape(int port, String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private MetricsSettings withTokenFile(String content) throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, content);
    return MetricsSettings.fromEnvironment(Map.of(MetricsSettings.TOKEN_FILE, file.toString()));
  }

  @Test
  void withoutATokenFileAnyoneWhoReachesThePortReadsTheMetrics() throws Exception {
    MetricsSettings open = MetricsSettings.fromEnvironment(Map.of());
    assertThat(open.tokenRequired()).isFalse();
    HttpResponse<String> r = scrape(serve(open), null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("olmstead_probe_total 1.0");
  }

  @Test
  void withATokenFileOnlyItsBearerTokenReadsTheMetrics() throws Exception {
    MetricsSettings access = withTokenFile(TOKEN + "\n"); // a Secret's file may end with a newline
    int port = serve(access);
    for (String refused :
        new String[] {
          null, "Bearer wrong-token-0123456789", "Basic " + TOKEN, "Bearer " + TOKEN + "x"
        }) {
      HttpResponse<String> r = scrape(port, refused);
      assertThat(r.statusCode()).as(String.valueOf(refused)).isEqualTo(401);
      assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"metrics\"");
      assertThat(r.headers().firstValue("content-type")).hasValue(Problems.CONTENT_TYPE);
      assertThat(new JsonObject(r.body()).getString("detail"))
          .contains(MetricsSettings.TOKEN_FILE)
          .doesNotContain(TOKEN);
    }
    HttpResponse<String> allowed = scrape(port, "Bearer " + TOKEN);
    assertThat(allowed.statusCode()).isEqualTo(200);
    assertThat(allowed.body()).contains("olmstead_probe_total 1.0");
  }

  @Test
  void theConfigurationNamesTheFileNeverTheToken() throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, TOKEN);
    ControlPlaneConfig config =
        ControlPlaneConfig.fromEnvironment(
            Map.of(MetricsSettings.TOKEN_FILE, file.toString()), "127.0.0.1");
    assertThat(config.metrics().tokenRequired()).isTrue();
    assertThat(ControlPlaneConfig.ENVIRONMENT).contains(MetricsSettings.TOKEN_FILE);
    assertThat(config.toString()).contains("metrics=token from " + file).doesNotContain(TOKEN);
  }

  @Test
  void aMissingShortOrSpacedTokenFileIsRefusedAtStartNamingTheSetting() throws Exception {
    assertThatThrownBy(
            () ->
                MetricsSettings.fromEnvironment(
                    Map.of(MetricsSettings.TOKEN_FILE, dir.resolve("absent").toString())))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(MetricsSettings.TOKEN_FILE)
        .hasMessageContaining("not a readable file");
    assertThatThrownBy(() -> withTokenFile("short"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("at least 16 characters");
    assertThatThrownBy(() -> withTokenFile("two tokens-0123456789"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("without spaces")
        .hasMessageNotContaining("0123456789");
  }
}
