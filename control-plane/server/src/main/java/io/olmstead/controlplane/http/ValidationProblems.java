package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.OutputUnit;
import io.vertx.openapi.validation.SchemaValidationException;
import io.vertx.openapi.validation.ValidatorErrorType;
import io.vertx.openapi.validation.ValidatorException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps vertx-openapi's validation failures to problems: a body that breaks its schema is 422 {@code
 * validation-failed} with one entry per failing field (a JSON pointer); a bad or missing parameter
 * is 400 {@code bad-request}, a bad one saying what it must be ({@link ParameterProblems}).
 */
final class ValidationProblems {
  private static final Pattern PARAMETER =
      Pattern.compile("(?i)(query|path|header|cookie) parameter (\\S+)");
  private static final int MAX_ERRORS = 50;

  private ValidationProblems() {}

  static ApiException toProblem(ValidatorException e, ParameterProblems parameters) {
    String message = e.getMessage() == null ? "the request is invalid" : e.getMessage();
    boolean body = message.contains("request body");
    if (e.type() == ValidatorErrorType.MISSING_OPERATION) {
      return ApiException.notFound("no such operation");
    }
    if (body && e instanceof SchemaValidationException schema) {
      return ApiException.validationFailed(
          "the request body does not match the schema", errors(schema.getOutputUnit(), null));
    }
    if (body && message.contains("content type")) {
      return ApiException.unsupportedMediaType(message);
    }
    String field = parameterField(message);
    if (field != null && e.type() != ValidatorErrorType.MISSING_REQUIRED_PARAMETER) {
      int dot = field.indexOf('.');
      Optional<ApiException> described =
          parameters.problem(field.substring(0, dot), field.substring(dot + 1));
      if (described.isPresent()) {
        return described.get();
      }
    }
    JsonArray errors =
        e instanceof SchemaValidationException schema
            ? errors(schema.getOutputUnit(), field)
            : new JsonArray().add(entry(field, message));
    return new ApiException(400, "bad-request", "Bad Request", message, errors);
  }

  private static String parameterField(String message) {
    Matcher m = PARAMETER.matcher(message);
    return m.find() ? m.group(1).toLowerCase() + "." + m.group(2) : null;
  }

  static JsonArray errors(OutputUnit unit, String field) {
    List<OutputUnit> leaves = new ArrayList<>();
    collect(unit, leaves);
    Set<String> seen = new LinkedHashSet<>();
    JsonArray errors = new JsonArray();
    for (OutputUnit leaf : leaves) {
      String location = field != null ? field : pointer(leaf.getInstanceLocation());
      String text = leaf.getError() == null ? "is invalid" : leaf.getError();
      if (seen.add(location + "\u0000" + text) && errors.size() < MAX_ERRORS) {
        errors.add(entry(location, text));
      }
    }
    if (errors.isEmpty()) {
      errors.add(entry(field == null ? "" : field, "is invalid"));
    }
    return errors;
  }

  private static void collect(OutputUnit unit, List<OutputUnit> leaves) {
    if (unit == null) {
      return;
    }
    List<OutputUnit> children = unit.getErrors();
    if (children == null || children.isEmpty()) {
      if (unit.getError() != null) {
        leaves.add(unit);
      }
      return;
    }
    children.forEach(child -> collect(child, leaves));
  }

  /**
   * vertx-json-schema reports {@code #/labels/env} or {@code /labels/env}; clients get the RFC 6901
   * pointer.
   */
  private static String pointer(String location) {
    if (location == null || location.equals("#")) {
      return "";
    }
    return location.startsWith("#") ? location.substring(1) : location;
  }

  private static JsonObject entry(String field, String message) {
    JsonObject entry = new JsonObject().put("message", message);
    if (field != null) {
      entry.put("field", field);
    }
    return entry;
  }
}
