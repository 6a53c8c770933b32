package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.Operation;
import java.util.Locale;
import java.util.Map;

/**
 * The NUL character is refused in every string a client sends (body, path, query): PostgreSQL
 * cannot store it in text and would answer 22021/22P05, a 500. One rule for every route, applied at
 * the edge.
 */
final class NulCharacters {
  static final String MESSAGE = "must not contain the NUL character (\\u0000)";

  private NulCharacters() {}

  static boolean contains(String value) {
    return value != null && value.indexOf('\u0000') >= 0;
  }

  /**
   * 422 naming the field: a JSON pointer into the body, or {@code path.<name>} / {@code
   * query.<name>}.
   */
  static ApiException refused(String field) {
    return ApiException.validationFailed(
        "the request contains a NUL character",
        new JsonArray().add(new JsonObject().put("field", field).put("message", MESSAGE)));
  }

  /**
   * Refuses a NUL in the path or in a query parameter's name or value (the body is checked by
   * JsonBodyGuard).
   */
  static void refuseInParameters(HttpServerRequest request, Operation operation) {
    String path = request.path() == null ? "" : request.path();
    if (path.indexOf('\u0000') >= 0 || path.toLowerCase(Locale.ROOT).contains("%00")) {
      throw refused(pathField(path, operation.getAbsoluteOpenAPIPath()));
    }
    String query = request.query();
    if (query == null || !(query.indexOf('\u0000') >= 0 || query.contains("%00"))) {
      return;
    }
    try {
      for (Map.Entry<String, String> param : request.params()) {
        if (contains(param.getKey()) || contains(param.getValue())) {
          throw refused("query." + param.getKey().replace("\u0000", ""));
        }
      }
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("the query string is not correctly encoded");
    }
  }

  /** {@code path.<name>} for the template parameter of the segment holding the NUL. */
  private static String pathField(String path, String template) {
    String[] actual = path.split("/", -1);
    String[] names = template.split("/", -1);
    for (int i = 0; i < actual.length && i < names.length; i++) {
      boolean nul =
          actual[i].indexOf('\u0000') >= 0 || actual[i].toLowerCase(Locale.ROOT).contains("%00");
      if (nul && names[i].startsWith("{") && names[i].endsWith("}")) {
        return "path." + names[i].substring(1, names[i].length() - 1);
      }
    }
    return "path";
  }
}
