package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.auth.Tokens;
import io.olmstead.controlplane.http.HostAddresses;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/v1/agent/connect}: takes a handshake permit for the source address, authenticates
 * the cluster credential (asynchronously, on the pool), counts the permit against that credential,
 * then upgrades to the agent WebSocket. The session releases the permit at {@code welcome} or when
 * it closes; every refusal releases it at once.
 */
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
      Problems.send(
          ctx.response(),
          Problems.problem(
              400, "bad-request", "Bad request", "this endpoint only upgrades to a WebSocket"));
      return;
    }
    if (gateway.closing()) {
      ctx.response().putHeader("Retry-After", "1");
      Problems.send(
          ctx.response(),
          Problems.problem(
              503,
              "unavailable",
              "Shutting down",
              "this replica is stopping; connect again (to another replica)"));
      return;
    }
    if (gateway.unreachable()) {
      ctx.response().putHeader("Retry-After", "1");
      Problems.send(
          ctx.response(),
          Problems.problem(
              503,
              "unavailable",
              "Database unavailable",
              "this replica cannot reach its database; connect again (to another replica)"));
      return;
    }
    Optional<String> credential = BearerToken.of(request);
    if (credential.isEmpty()) {
      unauthorized(ctx);
      return;
    }
    HandshakeLimits.Permit permit = gateway.handshakes().enter(HostAddresses.source(request));
    if (permit.refusal() != null) {
      refuse(ctx, permit.refusal());
      return;
    }
    byte[] hash = Tokens.hash(credential.get());
    request.pause();
    gateway
        .credentials()
        .open(credential.get())
        .onComplete(
            ar -> {
              if (ar.failed()) {
                permit.release();
                gateway.outage().failed(ar.cause());
                ctx.response().putHeader("Retry-After", "5");
                Problems.send(
                    ctx.response(),
                    Problems.problem(
                        503,
                        "unavailable",
                        "Unavailable",
                        "credentials cannot be checked right now; retry with backoff"));
                return;
              }
              if (ar.result().isEmpty()) {
                permit.release();
                unauthorized(ctx);
                return;
              }
              gateway.outage().recovered();
              HandshakeLimits.Refusal refusal = permit.authenticated(CredentialStore.hex(hash));
              if (refusal != null) {
                refuse(ctx, refusal);
                return;
              }
              String cluster = ar.result().get().cluster();
              long order = ar.result().get().order();
              request
                  .toWebSocket()
                  .onSuccess(
                      ws -> {
                        AgentSession session =
                            new AgentSession(
                                cluster, order, hash, ws, Vertx.currentContext(), gateway, permit);
                        session.start();
                        gateway.opened(session);
                      })
                  .onFailure(
                      e -> {
                        permit.release();
                        LOG.debug("cluster {}: upgrade failed: {}", cluster, e.toString());
                      });
            });
  }

  private void refuse(RoutingContext ctx, HandshakeLimits.Refusal refusal) {
    gateway.metrics().connectionRefused(refusal.metric);
    refusal.send(ctx.response());
  }

  private static void unauthorized(RoutingContext ctx) {
    ctx.response().putHeader("WWW-Authenticate", "Bearer");
    Problems.send(
        ctx.response(),
        Problems.problem(
            401, "unauthorized", "Unauthorized", "a live cluster credential is required"));
  }
}
