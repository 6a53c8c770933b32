package io.olmstead.controlplane.maturity;

import io.olmstead.olmcore.maturity.MaturityAnalyzer;
import io.olmstead.olmcore.maturity.Severity;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A subscription's {@code requirements.maturity} ({@code forbid} rule ids, {@code maxSeverity},
 * {@code minCapability}) against a stored maturity report; pure. Each violation is a {@code {field,
 * message}} error.
 */
public final class MaturityPolicy {
  static final String FIELD = "/requirements/maturity";
  private static final List<String> LEVELS =
      List.of(
          "Basic Install", "Seamless Upgrades", "Full Lifecycle", "Deep Insights", "Auto Pilot");

  /** At most this many findings are listed in a refusal; the count says how many more. */
  static final int MAX_LISTED = 50;

  private MaturityPolicy() {}

  /** Rule ids in {@code forbid} that no rule has (checked before any report is computed). */
  public static JsonArray unknownRules(JsonObject requirements) {
    JsonArray errors = new JsonArray();
    JsonArray forbid = maturity(requirements).getJsonArray("forbid", new JsonArray());
    List<String> known = MaturityAnalyzer.ruleIds();
    for (int i = 0; i < forbid.size(); i++) {
      if (!known.contains(forbid.getString(i))) {
        errors.add(error(FIELD + "/forbid/" + i, "unknown rule " + forbid.getString(i)));
      }
    }
    return errors;
  }

  /** True when the requirements ask anything of maturity. */
  public static boolean present(JsonObject requirements) {
    return !maturity(requirements).isEmpty();
  }

  /**
   * The violations of {@code report} (a stored report: findings, evidencedCapability); empty when
   * it complies.
   */
  public static JsonArray violations(JsonObject requirements, JsonObject report) {
    JsonObject m = maturity(requirements);
    JsonArray forbid = m.getJsonArray("forbid", new JsonArray());
    Severity max = Severity.parse(m.getString("maxSeverity"));
    JsonArray errors = new JsonArray();
    int over = 0;
    for (Object o : report.getJsonArray("findings", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      boolean forbidden = forbid.contains(f.getString("rule"));
      if (forbidden || tooSevere(max, f)) {
        if (errors.size() < MAX_LISTED) {
          errors.add(
              error(
                  FIELD + (forbidden ? "/forbid" : "/maxSeverity"),
                  "bundle "
                      + report.getString("bundle")
                      + " breaks "
                      + f.getString("rule")
                      + " ("
                      + f.getString("severity")
                      + "): "
                      + f.getString("message")));
        } else {
          over++;
        }
      }
    }
    if (over > 0) {
      errors.add(error(FIELD, over + " more findings break the requirements"));
    }
    String min = m.getString("minCapability");
    if (belowCapability(min, report)) {
      String evidenced = report.getString("evidencedCapability");
      errors.add(
          error(
              FIELD + "/minCapability",
              "bundle "
                  + report.getString("bundle")
                  + " evidences "
                  + (evidenced == null
                      ? "no capability level (it carries no objects)"
                      : "'" + evidenced + "'")
                  + ", less than '"
                  + min
                  + "'"));
    }
    return errors;
  }

  /**
   * The rule ids of {@code report}'s findings that break the requirements, sorted, with {@code
   * minCapability} when the evidenced level is too low; empty when the bundle complies. What a hold
   * names ({@code blockedReason}).
   */
  public static List<String> brokenRules(JsonObject requirements, JsonObject report) {
    JsonObject m = maturity(requirements);
    JsonArray forbid = m.getJsonArray("forbid", new JsonArray());
    Severity max = Severity.parse(m.getString("maxSeverity"));
    TreeSet<String> out = new TreeSet<>();
    for (Object o : report.getJsonArray("findings", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      if (forbid.contains(f.getString("rule")) || tooSevere(max, f)) {
        out.add(f.getString("rule"));
      }
    }
    List<String> rules = new ArrayList<>(out);
    if (belowCapability(m.getString("minCapability"), report)) {
      rules.add("minCapability");
    }
    return rules;
  }

  private static boolean tooSevere(Severity max, JsonObject finding) {
    Severity severity = Severity.parse(finding.getString("severity"));
    return max != null && severity != null && severity.compareTo(max) < 0;
  }

  private static boolean belowCapability(String min, JsonObject report) {
    if (min == null) {
      return false;
    }
    String evidenced = report.getString("evidencedCapability");
    return (evidenced == null ? -1 : LEVELS.indexOf(evidenced)) < LEVELS.indexOf(min);
  }

  private static JsonObject maturity(JsonObject requirements) {
    JsonObject m = requirements == null ? null : requirements.getJsonObject("maturity");
    return m == null ? new JsonObject() : m;
  }

  private static JsonObject error(String field, String message) {
    return new JsonObject().put("field", field).put("message", message);
  }
}
