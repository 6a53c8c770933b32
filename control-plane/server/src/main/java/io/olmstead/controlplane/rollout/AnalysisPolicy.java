package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.analysis.AnalysisCheck;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A strategy's {@code analysis}: the checks measured on each wave while it soaks, before the next
 * wave opens.
 */
public record AnalysisPolicy(List<AnalysisCheck> checks) {
  public static final int MAX_CHECKS = 20;
  public static final AnalysisPolicy NONE = new AnalysisPolicy(List.of());

  public AnalysisPolicy {
    checks = List.copyOf(checks);
  }

  /**
   * Reads {@code analysis} of a strategy; a bad check throws {@link StrategyException} naming its
   * field.
   */
  static AnalysisPolicy fromStrategy(JsonObject strategy) {
    Object value = strategy.getValue("analysis");
    if (value == null) {
      return NONE;
    }
    if (!(value instanceof JsonArray list) || list.size() > MAX_CHECKS) {
      throw new StrategyException(
          "analysis", "analysis must be a list of at most " + MAX_CHECKS + " checks");
    }
    List<AnalysisCheck> checks = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      if (!(list.getValue(i) instanceof JsonObject json)) {
        throw new StrategyException("analysis." + i, "each analysis check is an object");
      }
      AnalysisCheck check;
      try {
        check = AnalysisCheck.fromJson(json, false);
      } catch (AnalysisCheck.CheckException e) {
        throw new StrategyException(
            "analysis." + i + "." + e.field(), "analysis[" + i + "]: " + e.getMessage());
      }
      if (!names.add(check.name())) {
        throw new StrategyException(
            "analysis." + i + ".name", "analysis names " + check.name() + " twice");
      }
      checks.add(check);
    }
    return new AnalysisPolicy(checks);
  }

  /**
   * The rules a strategy sent to the API meets beyond what is read back from storage ({@link
   * AnalysisCheck#checkRequest}); a break throws {@link StrategyException} naming the field.
   */
  static void checkRequest(JsonObject strategy) {
    if (strategy != null && strategy.getValue("analysis") instanceof JsonArray list) {
      for (int i = 0; i < list.size(); i++) {
        if (list.getValue(i) instanceof JsonObject json) {
          try {
            AnalysisCheck.checkRequest(json);
          } catch (AnalysisCheck.CheckException e) {
            throw new StrategyException(
                "analysis." + i + "." + e.field(), "analysis[" + i + "]: " + e.getMessage());
          }
        }
      }
    }
  }

  /** The same checks with {@code resolved} in place of those naming a template. */
  AnalysisPolicy with(List<AnalysisCheck> resolved) {
    return new AnalysisPolicy(resolved);
  }

  /** Adds {@code analysis} to a strategy's JSON form (nothing when there is no check). */
  void writeTo(JsonObject strategy) {
    if (!checks.isEmpty()) {
      JsonArray list = new JsonArray();
      checks.forEach(c -> list.add(c.toJson()));
      strategy.put("analysis", list);
    }
  }
}
