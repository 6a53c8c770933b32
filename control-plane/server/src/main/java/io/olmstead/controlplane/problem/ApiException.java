package io.olmstead.controlplane.problem;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failure meant for the client: status, stable code and a detail safe to show. Handlers and
 * stores fail their futures with it; the HTTP layer's {@code ApiFailureHandler} turns it into the
 * problem document.
 */
public final class ApiException extends RuntimeException {
  private final int status;
  private final String code;
  private final String title;
  private final JsonArray errors;
  private final boolean teamDenied;
  // members a problem adds to the standard ones (RFC 9457 extensions) and response headers such as
  // Retry-After
  private final JsonObject extensions = new JsonObject();
  private final Map<String, String> headers = new LinkedHashMap<>();

  public ApiException(int status, String code, String title, String detail, JsonArray errors) {
    this(status, code, title, detail, errors, false);
  }

  private ApiException(
      int status, String code, String title, String detail, JsonArray errors, boolean teamDenied) {
    super(detail, null, false, false);
    this.status = status;
    this.code = code;
    this.title = title;
    this.errors = errors;
    this.teamDenied = teamDenied;
  }

  public static ApiException badRequest(String detail) {
    return new ApiException(400, "bad-request", "Bad Request", detail, null);
  }

  public static ApiException badRequest(String detail, String field) {
    return new ApiException(
        400,
        "bad-request",
        "Bad Request",
        detail,
        new JsonArray().add(new JsonObject().put("field", field).put("message", detail)));
  }

  public static ApiException unauthorized(String detail) {
    return new ApiException(401, "unauthorized", "Unauthorized", detail, null);
  }

  public static ApiException forbidden(String detail) {
    return new ApiException(403, "forbidden", "Forbidden", detail, null);
  }

  public static ApiException notFound(String detail) {
    return new ApiException(404, "not-found", "Not Found", detail, null);
  }

  /**
   * 404 for an object of a team the caller is not in: the same answer as for a missing one, but
   * audited as denied (the audit log is for unscoped admins only).
   */
  public static ApiException hiddenByTeam(String detail) {
    return new ApiException(404, "not-found", "Not Found", detail, null, true);
  }

  public static ApiException conflict(String detail) {
    return new ApiException(409, "conflict", "Conflict", detail, null);
  }

  public static ApiException preconditionFailed(String detail) {
    return new ApiException(412, "precondition-failed", "Precondition Failed", detail, null);
  }

  public static ApiException bodyTooLarge(long limit) {
    return new ApiException(
        413,
        "body-too-large",
        "Payload Too Large",
        "the request body is over the limit of " + limit + " bytes",
        null);
  }

  public static ApiException unsupportedMediaType(String detail) {
    return new ApiException(415, "unsupported-media-type", "Unsupported Media Type", detail, null);
  }

  /** 422 with every problem listed ({@code field} is a JSON pointer into the body). */
  public static ApiException validationFailed(String detail, JsonArray errors) {
    return new ApiException(422, "validation-failed", "Unprocessable Content", detail, errors);
  }

  /** Adds a member to the problem document (e.g. {@code reason}, {@code state}); returns this. */
  public ApiException with(String member, Object value) {
    extensions.put(member, value);
    return this;
  }

  /**
   * Names the fields of one part of a request body: each error's field given as a bare name ({@code
   * targetVersion}) becomes {@code prefix/name}; JSON pointers stay. Returns this.
   */
  public ApiException fieldsUnder(String prefix) {
    if (errors != null) {
      for (Object e : errors) {
        if (e instanceof JsonObject error
            && error.getString("field") != null
            && !error.getString("field").startsWith("/")) {
          error.put("field", prefix + "/" + error.getString("field"));
        }
      }
    }
    return this;
  }

  /** Adds a response header (e.g. {@code Retry-After}); returns this. */
  public ApiException withHeader(String name, String value) {
    headers.put(name, value);
    return this;
  }

  public Map<String, String> headers() {
    return Collections.unmodifiableMap(headers);
  }

  /** Whether a team scope, not a missing object, is behind this 404. */
  public boolean teamDenied() {
    return teamDenied;
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  public JsonObject toProblem() {
    JsonObject problem = Problems.problem(status, code, title, getMessage());
    extensions.forEach(e -> problem.put(e.getKey(), e.getValue()));
    return errors == null || errors.isEmpty() ? problem : Problems.withErrors(problem, errors);
  }
}
