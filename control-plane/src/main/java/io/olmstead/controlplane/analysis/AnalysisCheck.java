package io.olmstead.controlplane.analysis;

import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One analysis check of a rollout strategy: a PromQL {@code query} measured {@code count} times, every
 * {@code intervalSeconds}, on each cluster of a soaking wave, and compared by {@code successIf}; more than
 * {@code failureLimit} failed or {@code inconclusiveLimit} inconclusive measurements end the check. A check naming a
 * {@code templateName} takes its query, condition, timing and limits from that template when the rollout is created
 * (until then {@link #resolved()} is false; the rollout stores the copy, with the templateName, so a later change of
 * the template does not change a running rollout).
 */
public record AnalysisCheck(String name, String templateName, String query, SuccessIf successIf, int intervalSeconds,
    int count, int failureLimit, int inconclusiveLimit, OnFailure onFailure) {
  public static final int MAX_QUERY_CHARS = 10_000;
  static final Pattern NAME = Pattern.compile("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$");

  /** What a failed check does: pause the rollout, abort it, or fail the cluster (spending the failure budget). */
  public enum OnFailure { PAUSE, ABORT, BUDGET }

  /** Whether the query and condition are known (inline, or copied from the template). */
  public boolean resolved() {
    return query != null && successIf != null;
  }

  /** This check with a template's query, condition, timing and limits. */
  public AnalysisCheck withTemplate(AnalysisCheck template) {
    return new AnalysisCheck(name, templateName, template.query, template.successIf, template.intervalSeconds,
        template.count, template.failureLimit, template.inconclusiveLimit, onFailure);
  }

  /**
   * Parses one check (of a strategy, {@code template} false, or the body of a template, true: no name, no
   * templateName, no onFailure); a bad field throws {@link CheckException} naming it relative to the object.
   */
  public static AnalysisCheck fromJson(JsonObject json, boolean template) {
    String name = null;
    String templateName = null;
    OnFailure onFailure = OnFailure.PAUSE;
    if (!template) {
      name = json.getValue("name") instanceof String s ? s : null;
      if (name == null || !NAME.matcher(name).matches()) {
        throw new CheckException("name", "name must be a DNS label (lower case letters, digits and '-')");
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
      return new AnalysisCheck(name, templateName, null, null, 0, 0, 0, 0, onFailure);
    }
    String query = json.getValue("query") instanceof String s ? s : null;
    if (query == null || query.isBlank()) {
      throw new CheckException("query", "query is required (a PromQL expression)");
    }
    if (query.length() > MAX_QUERY_CHARS) {
      throw new CheckException("query", "query is longer than " + MAX_QUERY_CHARS + " characters");
    }
    SuccessIf successIf;
    try {
      successIf = SuccessIf.parse(json.getValue("successIf") instanceof String s ? s : null);
    } catch (IllegalArgumentException e) {
      throw new CheckException("successIf", e.getMessage());
    }
    return new AnalysisCheck(name, templateName, query, successIf, integer(json, "intervalSeconds", 60, 1, 86_400),
        integer(json, "count", 1, 1, 1_000), integer(json, "failureLimit", 0, 0, 1_000),
        integer(json, "inconclusiveLimit", 0, 0, 1_000), onFailure);
  }

  /** The JSON form: what a strategy stores (resolved checks keep their templateName) or a template's body. */
  public JsonObject toJson() {
    JsonObject out = new JsonObject();
    if (name != null) {
      out.put("name", name);
    }
    if (templateName != null) {
      out.put("templateName", templateName);
    }
    if (resolved()) {
      out.put("query", query).put("successIf", successIf.toString()).put("intervalSeconds", intervalSeconds)
          .put("count", count).put("failureLimit", failureLimit).put("inconclusiveLimit", inconclusiveLimit);
    }
    if (name != null) {
      out.put("onFailure", onFailure.name().toLowerCase(Locale.ROOT));
    }
    return out;
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
