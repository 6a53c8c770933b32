package io.olmstead.controlplane.http;

import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.problem.ValueShapes;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.json.schema.JsonSchema;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A path, query or header parameter that breaks its schema as a 400 naming the parameter, echoing
 * the value and saying in words ({@link ValueShapes}) what it must be, rather than the validator's
 * "String does not match pattern".
 *
 * @param operation the operation the request matched; null when the gate did not find one
 * @param raw the value the client sent for a location and a parameter name, or null
 */
record ParameterProblems(Operation operation, BiFunction<Location, String, String> raw) {

  static ParameterProblems of(Operation operation, RoutingContext ctx) {
    return new ParameterProblems(operation, (in, name) -> sent(operation, ctx, in, name));
  }

  /** The problem for parameter {@code name} in {@code in} (path, query...), if the spec has it. */
  Optional<ApiException> problem(String in, String name) {
    if (operation == null) {
      return Optional.empty();
    }
    for (Parameter parameter : operation.getParameters()) {
      if (parameter.getIn().name().equalsIgnoreCase(in) && parameter.getName().equals(name)) {
        return Optional.of(problem(parameter));
      }
    }
    return Optional.empty();
  }

  private ApiException problem(Parameter parameter) {
    JsonObject schema = json(parameter.getSchema());
    String shape = "must be " + ValueShapes.describe(schema);
    String in = parameter.getIn().name().toLowerCase(Locale.ROOT);
    String value = raw.apply(parameter.getIn(), parameter.getName());
    StringBuilder detail =
        new StringBuilder("the ").append(in).append(" parameter ").append(parameter.getName());
    if (value != null) {
      detail.append(" '").append(ValueShapes.shown(value)).append('\'');
      if (outsideLength(schema, value)) {
        detail.append(" (").append(value.length()).append(" characters)");
      }
    }
    detail.append(' ').append(shape);
    JsonArray errors =
        new JsonArray()
            .add(
                new JsonObject()
                    .put("field", in + "." + parameter.getName())
                    .put("message", shape));
    return new ApiException(400, "bad-request", "Bad Request", detail.toString(), errors);
  }

  private static boolean outsideLength(JsonObject schema, String value) {
    Integer min = schema.getInteger("minLength");
    Integer max = schema.getInteger("maxLength");
    return (max != null && value.length() > max) || (min != null && value.length() < min);
  }

  /** The parameter's (resolved) schema as JSON. */
  private static JsonObject json(JsonSchema schema) {
    JsonObject json = new JsonObject();
    if (schema != null) {
      schema.fieldNames().forEach(key -> json.put(key, schema.get(key)));
    }
    return json;
  }

  private static String sent(Operation operation, RoutingContext ctx, Location in, String name) {
    try {
      return switch (in) {
        case PATH -> pathValue(ctx.request().path(), operation.getAbsoluteOpenAPIPath(), name);
        case QUERY -> {
          List<String> values = ctx.queryParam(name);
          yield values.isEmpty() ? null : values.get(0);
        }
        case HEADER -> ctx.request().getHeader(name);
        case COOKIE -> null;
      };
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The decoded segment of {@code path} where {@code template} has {@code {name}}. */
  static String pathValue(String path, String template, String name) {
    if (path == null) {
      return null;
    }
    String[] actual = path.split("/", -1);
    String[] names = template.split("/", -1);
    for (int i = 0; i < actual.length && i < names.length; i++) {
      if (names[i].equals("{" + name + "}")) {
        return URLDecoder.decode(actual[i].replace("+", "%2B"), StandardCharsets.UTF_8);
      }
    }
    return null;
  }
}
