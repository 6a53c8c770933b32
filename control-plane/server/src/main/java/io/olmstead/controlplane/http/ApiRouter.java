package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.OpenAPIRoute;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.contract.OpenAPIContract;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the {@code /api/v1} router from openapi.yaml: the gate and runtime validation in front of
 * every operation, the modules' handlers bound by operationId, and one failure handler. Operations
 * no module binds answer 501.
 */
public final class ApiRouter {
  private static final Logger LOG = LoggerFactory.getLogger(ApiRouter.class);

  /**
   * JSON bodies are small; only raw (streamed) bodies may use the whole {@code
   * OLMSTEAD_MAX_BODY_BYTES}.
   */
  public static final long MAX_JSON_BODY_BYTES = 4L * 1024 * 1024;

  private final ApiContract contract;
  private final Router router;
  private final Set<String> unbound;

  private ApiRouter(ApiContract contract, Router router, Set<String> unbound) {
    this.contract = contract;
    this.router = router;
    this.unbound = Set.copyOf(unbound);
  }

  /**
   * Loads the contract and builds the router; fails when the spec cannot be loaded or a module
   * binds a wrong id.
   */
  public static Future<ApiRouter> create(ApiContext context, List<ApiModule> modules) {
    // Parsing the YAML is blocking work: keep it off the event loop.
    return CursorKey.install(context.vertx(), context.pool())
        .compose(v -> context.vertx().executeBlocking(ApiContract::load, false))
        .compose(contract -> build(context, modules, contract));
  }

  private static Future<ApiRouter> build(
      ApiContext context, List<ApiModule> modules, ApiContract contract) {
    return Future.all(
            contract.toOpenApi(context.vertx()), contract.toRouterOpenApi(context.vertx()))
        .map(
            both -> {
              BodyValidation bodies = BodyValidation.create(context.vertx(), both.resultAt(0));
              OpenAPIContract openApi = both.resultAt(1);
              RouterBuilder builder =
                  RouterBuilder.create(context.vertx(), openApi, new ApiRequestExtractor(bodies));
              ApiGate gate =
                  new ApiGate(
                      openApi,
                      contract,
                      context.authenticator(),
                      context.tx().audit(),
                      Math.min(context.config().maxBodyBytes(), MAX_JSON_BODY_BYTES),
                      context.config().maxBodyBytes());
              builder
                  .rootHandler(RequestIds::handle)
                  .rootHandler(SecurityHeaders::api)
                  .rootHandler(gate::admit)
                  .rootHandler(gate::readBody)
                  .rootHandler(gate::checkJson);
              modules.forEach(module -> module.register(builder, context));
              Set<String> unbound = new TreeSet<>();
              for (OpenAPIRoute route : builder.getRoutes()) {
                if (route.getHandlers().isEmpty()) {
                  unbound.add(route.getOperation().getOperationId());
                  route.addHandler(ApiRouter::notImplemented);
                }
              }
              if (!unbound.isEmpty()) {
                LOG.info(
                    "operations in openapi.yaml without a handler yet (answer 501): {}", unbound);
              }
              Router router = builder.createRouter();
              router.route().failureHandler(ApiFailureHandler::handle);
              return new ApiRouter(contract, router, unbound);
            });
  }

  /** Mounts the API under its base path. */
  public void mount(Router parent) {
    parent.route(contract.basePath() + "/*").subRouter(router);
  }

  public ApiContract contract() {
    return contract;
  }

  /** The routes as built (for the test that keeps spec and routes in step). */
  public Router router() {
    return router;
  }

  /** Operations of the spec that no module binds. */
  public Set<String> unbound() {
    return unbound;
  }

  private static void notImplemented(RoutingContext ctx) {
    Problems.send(
        ctx.response(),
        Problems.problem(
                501,
                "not-implemented",
                "Not Implemented",
                "this operation is specified but not implemented yet")
            .put("requestId", RequestIds.of(ctx)));
  }
}
