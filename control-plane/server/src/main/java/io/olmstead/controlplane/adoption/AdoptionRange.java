package io.olmstead.controlplane.adoption;

import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * The window of an adoption chart: {@code since} (ISO-8601 duration, PT1M to the retention, default
 * PT24H) and {@code step} (PT1M up to {@code since}, default {@code since}/120 rounded up to whole
 * minutes), at most {@link #MAX_POINTS} points. Bad values are a 422 naming the parameter.
 */
record AdoptionRange(Duration since, Duration step) {
  static final int MAX_POINTS = 1000;
  private static final Duration MIN = Duration.ofMinutes(1);

  static AdoptionRange parse(String sinceText, String stepText) {
    Duration since = sinceText == null ? Duration.ofHours(24) : duration("since", sinceText);
    if (since.compareTo(MIN) < 0 || since.compareTo(AdoptionSampler.RETENTION) > 0) {
      throw invalid(
          "since",
          "since must be between PT1M and "
              + AdoptionSampler.RETENTION.toDays()
              + " days (P"
              + AdoptionSampler.RETENTION.toDays()
              + "D), not "
              + sinceText);
    }
    Duration step;
    if (stepText == null) {
      long minutes = Math.max(1, (since.toMinutes() + 119) / 120);
      step = Duration.ofMinutes(minutes);
    } else {
      step = duration("step", stepText);
    }
    if (step.compareTo(MIN) < 0 || step.compareTo(since) > 0) {
      throw invalid("step", "step must be between PT1M and since (" + since + "), not " + stepText);
    }
    if (since.toSeconds() / step.toSeconds() > MAX_POINTS) {
      throw invalid(
          "step",
          "step "
              + stepText
              + " gives more than "
              + MAX_POINTS
              + " points over "
              + since
              + "; choose a step of at least "
              + Duration.ofSeconds((since.toSeconds() + MAX_POINTS - 1) / MAX_POINTS));
    }
    return new AdoptionRange(since, step);
  }

  private static Duration duration(String field, String text) {
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw invalid(
          field, field + " must be an ISO-8601 duration such as PT24H or P7D, not " + text);
    }
  }

  private static ApiException invalid(String field, String message) {
    return ApiException.validationFailed(
        message, new JsonArray().add(new JsonObject().put("field", field).put("message", message)));
  }
}
