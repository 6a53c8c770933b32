package io.olmstead.controlplane.http;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.auth.TokenAuthenticator;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import java.util.Locale;
import java.util.Optional;

/**
 * Everything an API request passes before schema validation, in order: find the operation, check
 * the bearer token (401) and the role (403), the content type (415) and the declared length (413);
 * then read a JSON body within the limit (413) and check it is sane JSON (400). Raw-body operations
 * get the request still paused, for their handler to stream.
 */
public final class ApiGate {
  public static final String POLICY_KEY = "olmstead.policy";
  public static final String PRINCIPAL_KEY = "olmstead.principal";

  /** The spec's operation the request matched, for the words of a parameter's 400. */
  static final String OPERATION_KEY = "olmstead.operation";

  private final OpenAPIContract openApi;
  private final ApiContract contract;
  private final TokenAuthenticator authenticator;
  private final Audit audit;
  private final long jsonBodyLimit;
  private final long rawBodyLimit;
  private final BodyHandler bodyHandler;
  private final BodyHandler unauthenticatedBodyHandler;

  /** Enough for any enrollment request (64 labels, 64 facts). */
  static final long UNAUTHENTICATED_BODY_LIMIT = 64 * 1024;

  public ApiGate(
      OpenAPIContract openApi,
      ApiContract contract,
      TokenAuthenticator authenticator,
      Audit audit,
      long jsonBodyLimit,
      long rawBodyLimit) {
    this.openApi = openApi;
    this.contract = contract;
    this.authenticator = authenticator;
    this.audit = audit;
    this.jsonBodyLimit = jsonBodyLimit;
    this.rawBodyLimit = rawBodyLimit;
    this.bodyHandler =
        BodyHandler.create(false).setBodyLimit(jsonBodyLimit).setHandleFileUploads(false);
    this.unauthenticatedBodyHandler =
        BodyHandler.create(false)
            .setBodyLimit(UNAUTHENTICATED_BODY_LIMIT)
            .setHandleFileUploads(false);
  }

  /**
   * Operations not secured by an API token (enrollment) check their credential only after the body
   * is read.
   */
  private long jsonLimit(OperationPolicy policy) {
    return policy.apiTokenAuth()
        ? jsonBodyLimit
        : Math.min(jsonBodyLimit, UNAUTHENTICATED_BODY_LIMIT);
  }

  /**
   * Content type, length and credentials; the request stays paused while the token is looked up.
   */
  public void admit(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    Operation operation = openApi.findOperation(request.path(), request.method());
    Optional<OperationPolicy> found =
        operation == null ? Optional.empty() : contract.policy(operation.getOperationId());
    if (found.isEmpty()) {
      ctx.next();
      return;
    }
    OperationPolicy policy = found.get();
    ctx.put(POLICY_KEY, policy);
    ctx.put(OPERATION_KEY, operation);
    NulCharacters.refuseInParameters(request, operation);
    request.pause();
    if (!policy.apiTokenAuth()) {
      checkContent(request, policy);
      ctx.next();
      return;
    }
    authenticator
        .authenticate(request.getHeader(HttpHeaders.AUTHORIZATION))
        .onSuccess(principal -> authorize(ctx, policy, principal))
        .onFailure(ctx::fail);
  }

  private void authorize(RoutingContext ctx, OperationPolicy policy, Principal principal) {
    ctx.put(PRINCIPAL_KEY, principal);
    if (policy.role().isPresent() && !principal.role().includes(policy.role().get())) {
      ApiException denied =
          ApiException.forbidden(
              "operation "
                  + policy.operationId()
                  + " needs the "
                  + policy.role().get().wireName()
                  + " role; this token is "
                  + principal.role().wireName());
      if (policy.mutation()) {
        audit.recordDenied(
            new AuditEntry(
                principal.actor(),
                policy.operationId(),
                ctx.request().path(),
                AuditEntry.DENIED,
                new JsonObject().put("reason", "role"),
                RequestIds.of(ctx)));
      }
      ctx.fail(denied);
      return;
    }
    if (policy.fleetWide() && principal.teamScoped()) {
      audit.recordDenied(
          new AuditEntry(
              principal.actor(),
              policy.operationId(),
              ctx.request().path(),
              AuditEntry.DENIED,
              new JsonObject().put("reason", "team"),
              RequestIds.of(ctx)));
      ctx.fail(
          ApiException.forbidden(
              "operation "
                  + policy.operationId()
                  + " changes what every team shares; "
                  + "a team-scoped token cannot call it"));
      return;
    }
    try {
      checkContent(ctx.request(), policy);
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    ctx.next();
  }

  /**
   * Reads and checks a JSON body; raw bodies are left for the handler; bodies of body-less
   * operations are drained.
   */
  public void readBody(RoutingContext ctx) {
    OperationPolicy policy = ctx.get(POLICY_KEY);
    if (policy == null || policy.rawBody()) {
      ctx.next();
    } else if (policy.jsonBody()) {
      (policy.apiTokenAuth() ? bodyHandler : unauthenticatedBodyHandler).handle(ctx);
    } else {
      ctx.request().resume();
      ctx.next();
    }
  }

  /**
   * Runs after {@link #readBody}: a required body must be there (its content is checked off the
   * event loop).
   */
  public void checkJson(RoutingContext ctx) {
    OperationPolicy policy = ctx.get(POLICY_KEY);
    boolean empty = ctx.body() == null || ctx.body().buffer() == null || ctx.body().length() == 0;
    if (policy != null && policy.jsonBody() && policy.bodyRequired() && empty) {
      throw ApiException.badRequest("a request body is required");
    }
    ctx.next();
  }

  private void checkContent(HttpServerRequest request, OperationPolicy policy) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    boolean chunked = request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
    long declared = parseLength(length);
    // HTTP/2 needs neither header: there a body is coming unless the request already ended with its
    // headers.
    boolean http2Body =
        declared < 0 && request.version() == HttpVersion.HTTP_2 && !request.isEnded();
    boolean hasBody = chunked || declared > 0 || http2Body;
    if (!policy.acceptsBody()) {
      return;
    }
    if (!hasBody) {
      if (policy.bodyRequired()) {
        throw ApiException.badRequest("a request body is required");
      }
      return;
    }
    String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
    if (type == null || !accepts(policy, type)) {
      throw ApiException.unsupportedMediaType(
          "Content-Type "
              + (type == null ? "(none)" : "'" + abbreviate(type) + "'")
              + " is not accepted here; use one of "
              + String.join(", ", policy.mediaTypes().stream().sorted().toList()));
    }
    if (policy.jsonBody() && declared > jsonLimit(policy)) {
      throw ApiException.bodyTooLarge(jsonLimit(policy));
    }
    if (policy.rawBody() && declared > rawBodyLimit) {
      // Streamed bodies are limited by their handler while reading; a declared length over the
      // limit is refused now.
      throw ApiException.bodyTooLarge(rawBodyLimit);
    }
  }

  static boolean accepts(OperationPolicy policy, String contentType) {
    String[] parts = contentType.split(";");
    String mime = parts[0].trim().toLowerCase(Locale.ROOT);
    for (int i = 1; i < parts.length; i++) {
      String[] param = parts[i].trim().split("=", 2);
      if (param[0].trim().equalsIgnoreCase("charset")
          && (param.length < 2 || !param[1].trim().replace("\"", "").equalsIgnoreCase("utf-8"))) {
        return false;
      }
    }
    return policy.mediaTypes().contains(mime);
  }

  private static long parseLength(String length) {
    if (length == null) {
      return -1;
    }
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("Content-Length is not a number");
    }
  }

  private static String abbreviate(String value) {
    return value.length() > 100 ? value.substring(0, 100) + "..." : value;
  }
}
