package io.olmstead.controlplane.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.RequestUtils;
import io.vertx.openapi.validation.ValidatableRequest;

/**
 * Hands the validator the request's parameters; a JSON body is checked and validated by {@link
 * BodyValidation} first (off the event loop, in parallel) and kept for {@link ApiRequest#body()}.
 * The router's contract has no request bodies, so vertx-openapi does not parse or validate them
 * again.
 */
final class ApiRequestExtractor implements RequestExtractor {
  static final String BODY_KEY = "olmstead.body";
  private final BodyValidation bodies;

  ApiRequestExtractor(BodyValidation bodies) {
    this.bodies = bodies;
  }

  @Override
  public Future<ValidatableRequest> extractValidatableRequest(
      RoutingContext ctx, Operation operation) {
    OperationPolicy policy = ctx.get(ApiGate.POLICY_KEY);
    Buffer body = ctx.body() == null ? null : ctx.body().buffer();
    Future<Void> checked = Future.succeededFuture();
    if (policy != null && policy.jsonBody() && body != null && body.length() > 0) {
      checked =
          bodies
              .validate(operation.getOperationId(), body)
              .map(
                  json -> {
                    ctx.put(BODY_KEY, json);
                    return null;
                  });
    }
    return checked.compose(
        v -> RequestUtils.extract(ctx.request(), operation, () -> Future.succeededFuture()));
  }
}
