package io.olmstead.agent.health;

import io.olmstead.agent.config.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The agent's probes. {@code /healthz} answers from the event loop and needs nothing else, so a
 * liveness probe restarts only a stuck process, never one whose control plane or API is down.
 * {@code /readyz} is 200 only while every check holds (connected to the control plane, Kubernetes
 * API reachable), else 503 naming each problem.
 */
public final class HealthServer {
  private final HttpServer server;

  private HealthServer(HttpServer server) {
    this.server = server;
  }

  /**
   * Listens on {@code port} (0: any free one) of every interface, as a probe from the kubelet
   * needs.
   */
  public static Future<HealthServer> start(
      Vertx vertx, int port, Map<String, ReadinessCheck> checks) {
    Map<String, ReadinessCheck> named = Map.copyOf(checks);
    return vertx
        .createHttpServer(
            new HttpServerOptions().setPort(port).setHost("0.0.0.0").setIdleTimeout(30))
        .requestHandler(request -> handle(request, named))
        .listen()
        .map(HealthServer::new);
  }

  /**
   * Starts the probes as {@code settings} say and waits for the port to be bound; a port that
   * cannot be bound is a start-up error naming the setting. Nothing is served when the port is 0.
   */
  public static Optional<HealthServer> serve(
      Vertx vertx, HealthSettings settings, Map<String, ReadinessCheck> checks)
      throws ConfigException {
    if (!settings.enabled()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          start(vertx, settings.port(), checks)
              .toCompletionStage()
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new ConfigException(
          "cannot serve the probes on port "
              + settings.port()
              + " ("
              + HealthSettings.PORT
              + "): "
              + (e.getCause() == null ? e : e.getCause()).getMessage());
    }
  }

  public int port() {
    return server.actualPort();
  }

  public Future<Void> close() {
    return server.close();
  }

  private static void handle(HttpServerRequest request, Map<String, ReadinessCheck> checks) {
    String path = request.path();
    if (!"GET".equals(request.method().name()) && !"HEAD".equals(request.method().name())) {
      request.response().setStatusCode(405).end();
    } else if ("/healthz".equals(path)) {
      request.response().putHeader("Content-Type", "text/plain").end("ok\n");
    } else if ("/readyz".equals(path)) {
      List<String> problems = new ArrayList<>();
      checks.entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(
              check -> {
                Optional<String> problem = check.getValue().problem();
                problem.ifPresent(p -> problems.add(check.getKey() + ": " + p));
              });
      request
          .response()
          .setStatusCode(problems.isEmpty() ? 200 : 503)
          .putHeader("Content-Type", "text/plain")
          .end(problems.isEmpty() ? "ready\n" : String.join("\n", problems) + "\n");
    } else {
      request.response().setStatusCode(404).end();
    }
  }
}
