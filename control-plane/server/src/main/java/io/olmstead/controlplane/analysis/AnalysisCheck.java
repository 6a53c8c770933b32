package io.olmstead.controlplane.analysis;

import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One analysis check of a rollout strategy: a PromQL {@code query} measured {@code count} times,
 * every {@code intervalSeconds}, on each cluster of a soaking wave, and compared by {@code
 * successIf}; more than {@code failureLimit} failed or {@code inconclusiveLimit} inconclusive
 * measurements end the check. A check naming a {@code templateName} takes its query, condition,
 * timing and limits from that template when the rollout is created, except those it sets itself
 * (overrides: {@code successIf}, {@code intervalSeconds}, {@code count}, {@code failureLimit},
 * {@code inconclusiveLimit}; never the query). Until then {@link #resolved()} is false and an unset
 * override is {@link #UNSET} (or a null successIf); the rollout stores the resolved copy, with the
 * templateName, so a later change or deletion of the template does not change a rollout already
 * created.
 */
public record AnalysisCheck(
    String name,
    String templateName,
    String query,
    SuccessIf successIf,
    int intervalSeconds,
    int count,
    int failureLimit,
    int inconclusiveLimit,
    OnFailure onFailure) {
  /** The longest query the API accepts (a request over it is a 422 naming the field). */
  public static final int MAX_QUERY_CHARS = 4096;

  /** An override a template reference does not set. */
  public static final int UNSET = -1;

  static final Pattern NAME = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");

  /**
   * What a failed check does: pause the rollout, abort it, or fail the cluster (spending the
   * failure budget).
   */
  public enum OnFailure {
    PAUSE,
    ABORT,
    BUDGET
  }

  /** Whether the query and condition are known (inline, or copied from the template). */
  public boolean resolved() {
    return query != null && successIf != null;
  }

  /**
   * This check with a template's query, and its condition, timing and limits where this check sets
   * none.
   */
  public AnalysisCheck withTemplate(AnalysisCheck template) {
    return new AnalysisCheck(
        name,
        templateName,
        template.query,
        successIf != null ? successIf : template.successIf,
        or(intervalSeconds, template.intervalSeconds),
        or(count, template.count),
        or(failureLimit, template.failureLimit),
        or(inconclusiveLimit, template.inconclusiveLimit),
        onFailure);
  }

  private static int or(int override, int fallback) {
    return override == UNSET ? fallback : override;
  }

  /**
   * The rules a check sent to the API meets beyond what {@link #fromJson} reads back from storage:
   * a query of at most {@value #MAX_QUERY_CHARS} characters, and no query beside a templateName
   * (the template's query is used); a break throws {@link CheckException} naming the field.
   */
  public static void checkRequest(JsonObject json) {
    if (json.getValue("query") instanceof String q && q.length() > MAX_QUERY_CHARS) {
      throw new CheckException(
          "query",
          "query is "
              + q.length()
              + " characters long, more than the "
              + MAX_QUERY_CHARS
              + " allowed");
    }
    if (json.getValue("templateName") != null && json.containsKey("query")) {
      throw new CheckException(
          "query",
          "a check naming a template takes the template's query: send either "
              + "templateName or query");
    }
  }

  /**
   * Parses one check (of a strategy, {@code template} false, or the body of a template, true: no
   * name, no templateName, no onFailure); a bad field throws {@link CheckException} naming it
   * relative to the object.
   */
  public static AnalysisCheck fromJson(JsonObject json, boolean template) {
    String name = null;
    String templateName = null;
    OnFailure onFailure = OnFailure.PAUSE;
    if (!template) {
      name = json.getValue("name") instanceof String s ? s : null;
      if (name == null || !NAME.matcher(name).matches()) {
        throw new CheckException(
            "name", "name must be a DNS label (lower case letters, digits and '-')");
      }
      Object ref = json.getValue("templateName");
      if (ref != null) {
        if (!(ref instanceof String s) || !NAME.matcher(s).matches()) {
          throw new CheckException("templateName", "templateName must be a template's name");
        }
        templateName = s;
      }
      String policy = json.getValue("onFailure") instanceof String s ? s : "pause";
      try {
        onFailure = OnFailure.valueOf(policy.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CheckException("onFailure", "onFailure must be pause, abort or budget");
      }
    } else if (json.containsKey("templateName")) {
      throw new CheckException("templateName", "a template cannot reference another template");
    }
    if (templateName != null && !json.containsKey("query")) {
      // a reference: only the overrides it sets
      return new AnalysisCheck(
          name,
          templateName,
          null,
          json.containsKey("successIf") ? successIf(json) : null,
          integer(json, "intervalSeconds", UNSET, 1, 86_400),
          integer(json, "count", UNSET, 1, 1_000),
          integer(json, "failureLimit", UNSET, 0, 1_000),
          integer(json, "inconclusiveLimit", UNSET, 0, 1_000),
          onFailure);
    }
    String query = json.getValue("query") instanceof String s ? s : null;
    if (query == null || query.isBlank()) {
      throw new CheckException("query", "query is required (a PromQL expression)");
    }
    return new AnalysisCheck(
        name,
        templateName,
        query,
        successIf(json),
        integer(json, "intervalSeconds", 60, 1, 86_400),
        integer(json, "count", 1, 1, 1_000),
        integer(json, "failureLimit", 0, 0, 1_000),
        integer(json, "inconclusiveLimit", 0, 0, 1_000),
        onFailure);
  }

  /**
   * The JSON form: what a strategy stores (resolved checks keep their templateName) or a template's
   * body.
   */
  public JsonObject toJson() {
    JsonObject out = new JsonObject();
    if (name != null) {
      out.put("name", name);
    }
    if (templateName != null) {
      out.put("templateName", templateName);
    }
    if (resolved()) {
      out.put("query", query)
          .put("successIf", successIf.toString())
          .put("intervalSeconds", intervalSeconds)
          .put("count", count)
          .put("failureLimit", failureLimit)
          .put("inconclusiveLimit", inconclusiveLimit);
    } else {
      if (successIf != null) {
        out.put("successIf", successIf.toString());
      }
      putSet(out, "intervalSeconds", intervalSeconds);
      putSet(out, "count", count);
      putSet(out, "failureLimit", failureLimit);
      putSet(out, "inconclusiveLimit", inconclusiveLimit);
    }
    if (name != null) {
      out.put("onFailure", onFailure.name().toLowerCase(Locale.ROOT));
    }
    return out;
  }

  private static void putSet(JsonObject out, String field, int value) {
    if (value != UNSET) {
      out.put(field, value);
    }
  }

  private static SuccessIf successIf(JsonObject json) {
    try {
      return SuccessIf.parse(json.getValue("successIf") instanceof String s ? s : null);
    } catch (IllegalArgumentException e) {
      throw new CheckException("successIf", e.getMessage());
    }
  }

  private static int integer(JsonObject json, String field, int fallback, int min, int max) {
    Object value = json.getValue(field);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Integer n) || n < min || n > max) {
      throw new CheckException(field, field + " must be a whole number from " + min + " to " + max);
    }
    return n;
  }

  /** A bad field of a check: {@link #field()} is its name inside the check's object. */
  public static final class CheckException extends IllegalArgumentException {
    private final String field;

    public CheckException(String field, String message) {
      super(message);
      this.field = field;
    }

    public String field() {
      return field;
    }
  }
}
