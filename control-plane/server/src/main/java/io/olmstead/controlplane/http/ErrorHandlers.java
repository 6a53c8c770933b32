package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.Problems;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns every unhandled failure and unknown route into a problem document; 5xx bodies carry no
 * internals.
 */
public final class ErrorHandlers {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorHandlers.class);

  private ErrorHandlers() {}

  public static void mount(Router router) {
    router.errorHandler(
        404,
        ctx ->
            Problems.send(
                ctx.response(),
                Problems.problem(
                    404, "not-found", "Not Found", "no resource at " + safePath(ctx))));
    router.errorHandler(
        405,
        ctx ->
            Problems.send(
                ctx.response(),
                Problems.problem(
                    405,
                    "method-not-allowed",
                    "Method Not Allowed",
                    ctx.request().method() + " is not allowed here")));
    router.errorHandler(
        413,
        ctx ->
            Problems.send(
                ctx.response(),
                Problems.problem(
                    413,
                    "body-too-large",
                    "Payload Too Large",
                    "the request body is over the limit")));
    router.errorHandler(500, ErrorHandlers::internal);
  }

  private static void internal(RoutingContext ctx) {
    if (ctx.failure() != null) {
      LOG.error("request {} {} failed", ctx.request().method(), safePath(ctx), ctx.failure());
    }
    Problems.send(
        ctx.response(),
        Problems.problem(
            500,
            "internal",
            "Internal Server Error",
            "the server could not complete the request; it has been logged"));
  }

  private static String safePath(RoutingContext ctx) {
    String path = ctx.request().path();
    return path == null ? "/" : path.length() > 200 ? path.substring(0, 200) + "..." : path;
  }
}
