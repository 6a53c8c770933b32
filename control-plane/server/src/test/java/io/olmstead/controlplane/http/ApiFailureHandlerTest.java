package io.olmstead.controlplane.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.problem.DatabaseProblems;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ApiFailureHandlerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static Vertx vertx;
  private static HttpServer server;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::handle);
    router
        .get("/boom")
        .handler(
            ctx -> {
              throw new IllegalStateException("password=hunter2 at db.internal:5432");
            });
    router.get("/async-boom").handler(ctx -> ctx.fail(new RuntimeException("stack of internals")));
    router
        .get("/duplicate")
        .handler(
            ctx ->
                ctx.fail(
                    new PgException(
                        "duplicate key value violates unique " + "constraint \"clusters_pkey\"",
                        "ERROR",
                        "23505",
                        "Key (name)=(x) already exists.")));
    router.get("/gone").handler(ctx -> ctx.fail(ApiException.notFound("no cluster x")));
    router
        .get("/read-only")
        .handler(
            ctx ->
                ctx.fail(
                    new PgException(
                        "cannot execute UPDATE in a read-only " + "transaction",
                        "ERROR",
                        "25006",
                        null)));
    router.get("/ended").handler(ctx -> ctx.fail(ClosedConnectionException.INSTANCE));
    router
        .get("/terminated")
        .handler(
            ctx ->
                ctx.fail(
                    new PgException(
                        "terminating connection due to administrator " + "command",
                        "FATAL",
                        "57P01",
                        null)));
    router.route().failureHandler(ApiFailureHandler::handle);
    server =
        vertx
            .createHttpServer()
            .requestHandler(router)
            .listen(0)
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterAll
  static void stop() {
    vertx.close();
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
            .header("X-Request-Id", "rid-42")
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void internalErrorsAre500ProblemsWithoutInternals() throws Exception {
    for (String path : new String[] {"/boom", "/async-boom"}) {
      HttpResponse<String> response = get(path);
      assertThat(response.statusCode()).isEqualTo(500);
      assertThat(response.headers().firstValue("content-type"))
          .hasValue("application/problem+json");
      JsonObject problem = new JsonObject(response.body());
      assertThat(problem.getString("code")).isEqualTo("internal");
      assertThat(problem.getString("requestId")).isEqualTo("rid-42");
      assertThat(response.body())
          .doesNotContain("hunter2", "db.internal", "internals", "Exception", "at io.");
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

  @Test
  void anUnavailableOrReadOnlyDatabaseIsA503NamingItWithOneWarnLineAndNoStack() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(ApiFailureHandler.class);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    try {
      for (String path : new String[] {"/read-only", "/ended", "/terminated"}) {
        HttpResponse<String> response = get(path);
        assertThat(response.statusCode()).as(path).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
        JsonObject problem = new JsonObject(response.body());
        assertThat(problem.getString("code")).isEqualTo("database-unavailable");
        assertThat(problem.getString("detail")).contains("database");
        assertThat(response.body()).doesNotContain("read-only transaction", "administrator");
      }
      assertThat(logged.list)
          .hasSize(3)
          .allSatisfy(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getThrowableProxy()).isNull();
                assertThat(e.getFormattedMessage()).contains("the database is unavailable");
              });
    } finally {
      logger.detachAppender(logged);
    }
  }

  @Test
  void theClassificationTellsAnOutageFromAServerOrClientError() {
    assertThat(DatabaseProblems.unavailable(new PgException("x", "ERROR", "08006", null)))
        .isPresent();
    assertThat(
            DatabaseProblems.unavailable(
                new RuntimeException("wrapped", new PgException("x", "ERROR", "25006", null))))
        .get()
        .asString()
        .contains("25006");
    assertThat(
            DatabaseProblems.unavailable(
                new VertxException("Timeout waiting for connection", true)))
        .isPresent();
    assertThat(DatabaseProblems.unavailable(new ConnectException("Connection refused")))
        .isPresent();
    assertThat(DatabaseProblems.unavailable(new PgException("dup", "ERROR", "23505", null)))
        .isEmpty();
    assertThat(DatabaseProblems.unavailable(new PgException("bug", "ERROR", "42P01", null)))
        .isEmpty();
    assertThat(DatabaseProblems.unavailable(new IllegalStateException("boom"))).isEmpty();
  }

  @Test
  void aSecondActiveRolloutOfASubscriptionIsAConflictSayingSoNotAGenericDuplicate() {
    PgException oneActive =
        new PgException(
            "duplicate key value violates unique constraint \"rollouts_one_active\"",
            "ERROR",
            "23505",
            "Key (subscription)=(demo-operator) already exists.",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            "public",
            "rollouts",
            null,
            null,
            "rollouts_one_active");
    ApiException mapped = DatabaseProblems.fromDatabase(oneActive);
    assertThat(mapped.status()).isEqualTo(409);
    assertThat(mapped.toProblem().getString("detail"))
        .isEqualTo(
            "a rollout of this subscription is already Progressing or Paused: abort it or wait"
                + " for it to end");
    assertThat(
            DatabaseProblems.fromDatabase(new PgException("dup", "ERROR", "23505", null))
                .toProblem()
                .getString("detail"))
        .isEqualTo("an object with this name or key already exists");
  }
}
