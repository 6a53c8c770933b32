package io.olmstead.controlplane.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.openapi.contract.MediaType;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.RequestUtils;
import io.vertx.openapi.validation.ValidatableRequest;
import java.util.Map;

/**
 * Hands the validator the body {@link ApiGate} already read and checked. {@code +json} media types (JSON merge patch)
 * are presented as {@code application/json}, the form the adapted contract declares them in.
 */
final class ApiRequestExtractor implements RequestExtractor {

  @Override
  public Future<ValidatableRequest> extractValidatableRequest(RoutingContext ctx, Operation operation) {
    Buffer body = ctx.body() == null ? null : ctx.body().buffer();
    return RequestUtils.extract(ctx.request(), operation, () -> Future.succeededFuture(body))
        .map(ApiRequestExtractor::asJson);
  }

  private static ValidatableRequest asJson(ValidatableRequest request) {
    String type = request.getContentType();
    if (type == null || !type.split(";")[0].trim().endsWith("+json")) {
      return request;
    }
    return new ValidatableRequest() {
      @Override
      public String getContentType() {
        return MediaType.APPLICATION_JSON;
      }

      @Override
      public Map<String, RequestParameter> getCookies() {
        return request.getCookies();
      }

      @Override
      public Map<String, RequestParameter> getPathParameters() {
        return request.getPathParameters();
      }

      @Override
      public Map<String, RequestParameter> getQuery() {
        return request.getQuery();
      }

      @Override
      public Map<String, RequestParameter> getHeaders() {
        return request.getHeaders();
      }

      @Override
      public RequestParameter getBody() {
        return request.getBody();
      }
    };
  }
}
