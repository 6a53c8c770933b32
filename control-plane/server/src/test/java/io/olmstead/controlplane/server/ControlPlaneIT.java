package io.olmstead.controlplane.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestControlPlane;
import io.olmstead.controlplane.testsupport.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ControlPlaneIT {
  private static TestControlPlane cp;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    cp = TestControlPlane.start(ControlPlaneIT.class);
  }

  @AfterAll
  static void stop() {
    cp.close();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(cp.baseUrl() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void healthzAnswersWhileTheProcessIsUp() throws Exception {
    HttpResponse<String> response = get("/healthz");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("UP");
  }

  @Test
  void readyzIsReadyOnceMigrationsAreApplied() throws Exception {
    HttpResponse<String> response = get("/readyz");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("READY");
  }

  @Test
  void metricsExposeJvmHttpAndPoolMetricsInPrometheusText() throws Exception {
    get("/healthz");
    HttpResponse<String> response = get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
    assertThat(response.body())
        .contains("jvm_memory_used_bytes", "vertx_http_server_requests_total", "vertx_pool_");
  }

  @Test
  void unknownPathIsAProblemDocument() throws Exception {
    HttpResponse<String> response = get("/no/such/thing");
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
    assertThat(response.body()).contains("\"code\":\"not-found\"");
  }

  @Test
  void storesOnlyTheHashOfTheAdminToken() throws Exception {
    try (var connection =
            java.sql.DriverManager.getConnection(
                cp.database().jdbcUrl(), cp.database().user(), cp.database().password());
        var rs =
            connection
                .createStatement()
                .executeQuery("SELECT token_hash FROM api_tokens WHERE name = 'bootstrap-admin'")) {
      assertThat(rs.next()).isTrue();
      byte[] hash = rs.getBytes(1);
      assertThat(hash).hasSize(32).isNotEqualTo(TestControlPlane.ADMIN_TOKEN.getBytes());
      assertThat(hash).isEqualTo(Tokens.hash(TestControlPlane.ADMIN_TOKEN));
    }
  }

  @Test
  void readyzIsNotReadyWhenMigrationsAreMissing() throws Exception {
    DatabaseSettings empty = TestDatabase.createEmpty(ControlPlaneIT.class);
    try (TestControlPlane unmigrated =
        TestControlPlane.start(empty, Map.of("OLMSTEAD_DB_MIGRATE", "false"))) {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(unmigrated.baseUrl() + "/readyz")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(response.body()).contains("migrations not applied");
    } catch (IllegalStateException e) {
      throw new AssertionError(
          "a control plane without migrations must still start and report not ready", e);
    }
  }
}
