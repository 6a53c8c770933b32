package io.olmstead.controlplane.http;

import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatedRequest;
import java.util.Optional;

/**
 * A validated API request as handlers see it: caller, request id, typed parameters and the JSON
 * body.
 */
public final class ApiRequest {
  public static final int DEFAULT_LIMIT = 50;

  private final RoutingContext ctx;
  private final ValidatedRequest validated;

  private ApiRequest(RoutingContext ctx) {
    this.ctx = ctx;
    this.validated = ctx.get(RouterBuilder.KEY_META_DATA_VALIDATED_REQUEST);
  }

  public static ApiRequest of(RoutingContext ctx) {
    return new ApiRequest(ctx);
  }

  public RoutingContext ctx() {
    return ctx;
  }

  /** The caller; only operations secured by API tokens have one. */
  public Principal principal() {
    Principal principal = ctx.get(ApiGate.PRINCIPAL_KEY);
    if (principal == null) {
      throw new IllegalStateException("operation has no API-token principal");
    }
    return principal;
  }

  public String requestId() {
    return RequestIds.of(ctx);
  }

  /**
   * An audit entry for a change by this caller (the outcome is filled in by {@code Tx.audited}).
   */
  public AuditEntry audit(String action, String resource) {
    return new AuditEntry(
        principal().actor(),
        action,
        resource,
        AuditEntry.SUCCESS,
        new JsonObject().put("tokenId", principal().tokenId().toString()),
        requestId());
  }

  public String path(String name) {
    return param(validated == null ? null : validated.getPathParameters().get(name))
        .orElseGet(() -> ctx.pathParam(name));
  }

  public Optional<String> query(String name) {
    return param(validated == null ? null : validated.getQuery().get(name));
  }

  public int limit() {
    RequestParameter limit = validated == null ? null : validated.getQuery().get("limit");
    return limit == null || limit.isNull() || limit.isEmpty() ? DEFAULT_LIMIT : limit.getInteger();
  }

  public Optional<String> cursor() {
    return query("cursor");
  }

  public Optional<String> ifMatch() {
    return Optional.ofNullable(ctx.request().getHeader("If-Match"));
  }

  /** The validated JSON body (an empty object when the operation has none). */
  public JsonObject body() {
    Object body = ctx.get(ApiRequestExtractor.BODY_KEY);
    return body instanceof JsonObject json ? json : new JsonObject();
  }

  private static Optional<String> param(RequestParameter parameter) {
    if (parameter == null || parameter.isNull() || parameter.isEmpty()) {
      return Optional.empty();
    }
    Object value = parameter.get();
    return Optional.of(String.valueOf(value));
  }
}
