package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.problem.DatabaseProblems;
import io.olmstead.controlplane.problem.Problems;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.openapi.validation.ValidatorException;
import io.vertx.pgclient.PgException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place API failures become problem documents; 5xx bodies name only the request id, never
 * internals.
 */
public final class ApiFailureHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ApiFailureHandler.class);

  private ApiFailureHandler() {}

  public static void handle(RoutingContext ctx) {
    // the database unavailable (down, read-only after a failover, a session it ended) is an outage,
    // not a bug: 503
    // naming the database and one WARN line, no stack
    Optional<String> databaseDown =
        ctx.failure() instanceof ApiException
            ? Optional.empty()
            : DatabaseProblems.unavailable(ctx.failure());
    ApiException failure =
        databaseDown.isPresent()
            ? DatabaseProblems.unavailableProblem()
            : ctx.failure() instanceof ApiException api ? api : null;
    JsonObject problem = databaseDown.isPresent() ? failure.toProblem() : toProblem(ctx);
    int status = problem.getInteger("status");
    String requestId = RequestIds.of(ctx);
    problem.put("requestId", requestId);
    if (databaseDown.isPresent()) {
      LOG.warn(
          "request {} {} {}: the database is unavailable ({}); answered 503",
          requestId,
          ctx.request().method(),
          safePath(ctx),
          databaseDown.get());
    } else if (status >= 500) {
      LOG.error(
          "request {} {} {} failed",
          requestId,
          ctx.request().method(),
          safePath(ctx),
          ctx.failure());
    } else if (LOG.isDebugEnabled()) {
      LOG.debug(
          "request {} {} {} -> {} {}",
          requestId,
          ctx.request().method(),
          safePath(ctx),
          status,
          problem.getString("code"));
    }
    if (!ctx.request().isEnded()) {
      // The gate pauses requests; an unread body must be drained or the client, still sending,
      // never sees the answer.
      ctx.request().resume();
    }
    if (failure != null && !ctx.response().headWritten()) {
      failure.headers().forEach(ctx.response()::putHeader);
    }
    Problems.send(ctx.response(), problem);
  }

  static JsonObject toProblem(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    if (failure instanceof ApiException api) {
      return api.toProblem();
    }
    if (failure instanceof ValidatorException validation) {
      return ValidationProblems.toProblem(
              validation, ParameterProblems.of(ctx.get(ApiGate.OPERATION_KEY), ctx))
          .toProblem();
    }
    if (failure instanceof PgException pg) {
      ApiException mapped = DatabaseProblems.fromDatabase(pg);
      if (mapped != null) {
        return mapped.toProblem();
      }
    }
    int status = failure instanceof HttpException http ? http.getStatusCode() : ctx.statusCode();
    return byStatus(status);
  }

  /**
   * Constraint violations are the client's doing (a duplicate, a value no check caught); anything
   * else is ours.
   */
  private static JsonObject byStatus(int status) {
    return switch (status) {
      case 400 -> ApiException.badRequest("the request is malformed").toProblem();
      case 401 -> ApiException.unauthorized("a valid bearer token is required").toProblem();
      case 403 -> ApiException.forbidden("not allowed").toProblem();
      case 404 -> ApiException.notFound("no such resource").toProblem();
      case 413 ->
          new ApiException(
                  413,
                  "body-too-large",
                  "Payload Too Large",
                  "the request body is over the limit",
                  null)
              .toProblem();
      case 415 ->
          ApiException.unsupportedMediaType("the content type is not accepted here").toProblem();
      default ->
          Problems.problem(
              500,
              "internal",
              "Internal Server Error",
              "the server could not complete the request; it has been logged");
    };
  }

  private static String safePath(RoutingContext ctx) {
    String path = ctx.request().path();
    return path == null ? "/" : path.length() > 200 ? path.substring(0, 200) + "..." : path;
  }
}
