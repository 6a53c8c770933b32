package io.olmstead.controlplane.analysis;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the answer of Prometheus' {@code /api/v1/query} (pure): HTTP status and body in, {@link
 * QueryOutcome} out.
 */
public final class PromResponse {
  static final int MAX_ERROR_CHARS = 512;

  private PromResponse() {}

  public static QueryOutcome parse(int status, String body) {
    JsonObject json;
    try {
      json = body == null ? null : new JsonObject(body);
    } catch (DecodeException | ClassCastException e) {
      json = null;
    }
    if (json == null) {
      return new QueryOutcome.Unavailable("HTTP " + status + ", not a Prometheus answer");
    }
    if ("error".equals(json.getValue("status"))) {
      String message = bounded(String.valueOf(json.getValue("error")));
      return "bad_data".equals(json.getValue("errorType")) && status == 400
          ? new QueryOutcome.Refused(message)
          : new QueryOutcome.Unavailable("HTTP " + status + ": " + message);
    }
    if (status != 200
        || !"success".equals(json.getValue("status"))
        || !(json.getValue("data") instanceof JsonObject d)) {
      return new QueryOutcome.Unavailable("HTTP " + status + ", not a Prometheus answer");
    }
    try {
      return switch (String.valueOf(d.getValue("resultType"))) {
        case "vector" -> vector(d.getJsonArray("result"));
        case "scalar" -> new QueryOutcome.Samples(List.of(number(d.getJsonArray("result"))));
        default ->
            new QueryOutcome.Unavailable(
                "a "
                    + d.getValue("resultType")
                    + " result, not an instant vector "
                    + "or a scalar");
      };
    } catch (ClassCastException
        | NullPointerException
        | IndexOutOfBoundsException
        | NumberFormatException e) {
      return new QueryOutcome.Unavailable("a malformed result");
    }
  }

  private static QueryOutcome vector(JsonArray result) {
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < result.size(); i++) {
      values.add(number(result.getJsonObject(i).getJsonArray("value")));
    }
    return new QueryOutcome.Samples(values);
  }

  /**
   * {@code [timestamp, "value"]}; Prometheus writes NaN and infinities as "NaN", "+Inf", "-Inf".
   */
  private static double number(JsonArray pair) {
    String text = pair.getString(1);
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  /**
   * Prometheus's error text as stored in history, events and webhooks: at most {@value
   * #MAX_ERROR_CHARS} characters.
   */
  static String bounded(String message) {
    return message.length() <= MAX_ERROR_CHARS
        ? message
        : message.substring(0, MAX_ERROR_CHARS) + "...";
  }
}
