package io.olmstead.controlplane.http;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.olmstead.controlplane.config.MetricsSettings;
import io.olmstead.controlplane.db.DatabaseReadiness;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * Operational endpoints every mode serves: liveness ({@code /healthz}: 503 once the replica cannot
 * use its database, so that it is restarted rather than left wedged), readiness and Prometheus
 * metrics.
 */
public final class OpsRoutes {
  private final DatabaseReadiness readiness;
  private final PrometheusMeterRegistry registry;
  private final StartupGate gate;
  private final MetricsSettings access;
  private final Supplier<String> liveness;

  /**
   * {@code liveness}: null while this replica can work, else why not ({@code /healthz} answers 503
   * with it).
   */
  public OpsRoutes(
      DatabaseReadiness readiness,
      PrometheusMeterRegistry registry,
      StartupGate gate,
      MetricsSettings access,
      Supplier<String> liveness) {
    this.readiness = readiness;
    this.registry = registry;
    this.gate = gate;
    this.access = access;
    this.liveness = liveness;
  }

  public void mount(Router router) {
    router.get("/healthz").handler(this::live);
    router.get("/readyz").handler(this::ready);
    router.get("/metrics").handler(this::metrics);
  }

  private void live(RoutingContext ctx) {
    String down = liveness.get();
    if (down == null) {
      json(ctx, 200, new JsonObject().put("status", "UP"));
    } else {
      json(ctx, 503, new JsonObject().put("status", "DOWN").put("reason", down));
    }
  }

  private void ready(RoutingContext ctx) {
    String held = gate.reason();
    if (held != null) {
      json(ctx, 503, new JsonObject().put("status", "NOT_READY").put("reason", held));
      return;
    }
    readiness
        .check()
        .onComplete(
            result -> {
              String reason = result.succeeded() ? result.result() : "readiness check failed";
              if (reason == null) {
                json(ctx, 200, new JsonObject().put("status", "READY"));
              } else {
                json(ctx, 503, new JsonObject().put("status", "NOT_READY").put("reason", reason));
              }
            });
  }

  private void metrics(RoutingContext ctx) {
    if (!access.allows(ctx.request().getHeader("Authorization"))) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"metrics\"");
      Problems.send(
          ctx.response(),
          Problems.problem(
              401,
              "unauthorized",
              "Unauthorized",
              "/metrics requires the bearer token of " + MetricsSettings.TOKEN_FILE));
      return;
    }
    ctx.vertx()
        .executeBlocking(() -> registry.scrape(), false)
        .onComplete(
            result -> {
              if (result.failed()) {
                ctx.fail(result.cause());
                return;
              }
              ctx.response()
                  .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                  .end(result.result());
            });
  }

  private static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("content-type", "application/json")
        .putHeader("cache-control", "no-store")
        .end(body.encode());
  }
}
