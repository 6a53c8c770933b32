package io.olmstead.controlplane.http;

import io.vertx.core.Future;
import io.vertx.ext.web.openapi.router.OpenAPIRoute;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * A component's share of the REST API: binds handlers to the spec's operationIds. Modules are
 * listed in {@code ControlPlane.modules}; an operation no module binds answers 501 and fails {@code
 * ApiSpecRoutesIT}.
 */
public interface ApiModule {

  void register(RouterBuilder builder, ApiContext context);

  /** Binds a JSON handler to an operation of the spec; an unknown operationId fails at start. */
  static void bind(RouterBuilder builder, String operationId, ApiHandler handler) {
    route(builder, operationId)
        .addHandler(
            ctx -> {
              Future<Reply> reply;
              try {
                reply = handler.handle(ApiRequest.of(ctx));
              } catch (RuntimeException e) {
                ctx.fail(e);
                return;
              }
              reply.onSuccess(r -> r.send(ctx)).onFailure(ctx::fail);
            });
  }

  /**
   * The route of an operation, for handlers that need the raw {@code RoutingContext} (streams,
   * WebSockets).
   */
  static OpenAPIRoute route(RouterBuilder builder, String operationId) {
    OpenAPIRoute route = builder.getRoute(operationId);
    if (route == null) {
      throw new IllegalArgumentException("operationId " + operationId + " is not in openapi.yaml");
    }
    return route;
  }
}
