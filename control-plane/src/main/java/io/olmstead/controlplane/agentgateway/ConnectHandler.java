package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.http.Problems;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code GET /api/v1/agent/connect}: authenticates the cluster credential, then upgrades to the agent WebSocket. */
final class ConnectHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectHandler.class);

  private final AgentGateway gateway;

  ConnectHandler(AgentGateway gateway) {
    this.gateway = gateway;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    if (!"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
      Problems.send(ctx.response(), Problems.problem(400, "bad-request", "Bad request",
          "this endpoint only upgrades to a WebSocket"));
      return;
    }
    if (gateway.closing()) {
      ctx.response().putHeader("Retry-After", "1");
      Problems.send(ctx.response(), Problems.problem(503, "unavailable", "Shutting down",
          "this replica is stopping; connect again (to another replica)"));
      return;
    }
    Optional<String> credential = BearerToken.of(request);
    if (credential.isEmpty()) {
      unauthorized(ctx);
      return;
    }
    if (!gateway.admit()) {
      ctx.response().putHeader("Retry-After", "5");
      Problems.send(ctx.response(), Problems.problem(503, "unavailable", "Busy",
          "too many agents are connecting at once; retry with backoff"));
      return;
    }
    request.pause();
    gateway.credentials().authenticate(credential.get()).onComplete(ar -> {
      if (ar.failed() || ar.result().isEmpty()) {
        gateway.handshakeDone();
      }
      if (ar.failed()) {
        gateway.outage().failed(ar.cause());
        Problems.send(ctx.response(), Problems.problem(500, "internal", "Internal error", null));
        return;
      }
      if (ar.result().isEmpty()) {
        unauthorized(ctx);
        return;
      }
      gateway.outage().recovered();
      String cluster = ar.result().get();
      request.toWebSocket().onSuccess(ws -> {
        AgentSession session = new AgentSession(cluster, Tokens.hash(credential.get()), ws, Vertx.currentContext(),
            gateway);
        session.start();
        gateway.opened(session);
      })
          .onFailure(e -> {
            gateway.handshakeDone();
            LOG.debug("cluster {}: upgrade failed: {}", cluster, e.toString());
          });
    });
  }

  private static void unauthorized(RoutingContext ctx) {
    ctx.response().putHeader("WWW-Authenticate", "Bearer");
    Problems.send(ctx.response(), Problems.problem(401, "unauthorized", "Unauthorized",
        "a live cluster credential is required"));
  }
}
