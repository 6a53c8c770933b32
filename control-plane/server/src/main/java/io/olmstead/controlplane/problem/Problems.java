package io.olmstead.controlplane.problem;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The one error shape of the API: RFC 9457 {@code application/problem+json} with a stable machine
 * {@code code}.
 */
public final class Problems {
  public static final String CONTENT_TYPE = "application/problem+json";

  private Problems() {}

  public static JsonObject problem(int status, String code, String title, String detail) {
    JsonObject body =
        new JsonObject()
            .put("type", "https://olmstead.io/problems/" + code)
            .put("title", title)
            .put("status", status)
            .put("code", code);
    if (detail != null) {
      body.put("detail", detail);
    }
    return body;
  }

  public static JsonObject withErrors(JsonObject problem, JsonArray errors) {
    return problem.put("errors", errors);
  }

  public static void send(HttpServerResponse response, JsonObject problem) {
    if (response.ended() || response.closed()) {
      return;
    }
    response
        .setStatusCode(problem.getInteger("status"))
        .putHeader("content-type", CONTENT_TYPE)
        .putHeader("cache-control", "no-store")
        .putHeader("X-Content-Type-Options", "nosniff")
        .end(problem.encode());
  }
}
