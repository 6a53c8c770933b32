package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.pgclient.PgException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ApiFailureHandlerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static Vertx vertx;
  private static HttpServer server;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::handle);
    router.get("/boom").handler(ctx -> {
      throw new IllegalStateException("password=hunter2 at db.internal:5432");
    });
    router.get("/async-boom").handler(ctx -> ctx.fail(new RuntimeException("stack of internals")));
    router.get("/duplicate").handler(ctx -> ctx.fail(new PgException("duplicate key value violates unique "
        + "constraint \"clusters_pkey\"", "ERROR", "23505", "Key (name)=(x) already exists.")));
    router.get("/gone").handler(ctx -> ctx.fail(ApiException.notFound("no cluster x")));
    router.route().failureHandler(ApiFailureHandler::handle);
    server = vertx.createHttpServer().requestHandler(router).listen(0).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    vertx.close();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
        .header("X-Request-Id", "rid-42").build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void internalErrorsAre500ProblemsWithoutInternals() throws Exception {
    for (String path : new String[] {"/boom", "/async-boom"}) {
      HttpResponse<String> response = get(path);
      assertThat(response.statusCode()).isEqualTo(500);
      assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
      JsonObject problem = new JsonObject(response.body());
      assertThat(problem.getString("code")).isEqualTo("internal");
      assertThat(problem.getString("requestId")).isEqualTo("rid-42");
      assertThat(response.body()).doesNotContain("hunter2", "db.internal", "internals", "Exception", "at io.");
    }
  }

  @Test
  void uniqueViolationsAreConflictsWithoutTheDatabaseMessage() throws Exception {
    HttpResponse<String> response = get("/duplicate");
    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(new JsonObject(response.body()).getString("code")).isEqualTo("conflict");
    assertThat(response.body()).doesNotContain("clusters_pkey");
  }

  @Test
  void apiExceptionsKeepTheirStatusAndDetail() throws Exception {
    HttpResponse<String> response = get("/gone");
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(new JsonObject(response.body()).getString("detail")).isEqualTo("no cluster x");
    assertThat(response.headers().firstValue("X-Request-Id")).hasValue("rid-42");
  }
}
