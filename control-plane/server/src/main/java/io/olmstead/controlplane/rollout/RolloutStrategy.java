package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.selector.LabelSelector;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a rollout proceeds: an optional canary wave, then batches; budgets; timing; what to do over
 * budget. Parsed from the API body ({@link #fromJson}) and stored as that JSON ({@link #toJson}) so
 * a restart reads it back alike.
 */
public record RolloutStrategy(
    Canary canary,
    Integer batchSize,
    Integer batchPercent,
    Integer maxUnavailable,
    Budget maxFailures,
    int soakSeconds,
    int progressDeadlineSeconds,
    OnFailure onFailure,
    List<String> order,
    String groupBy,
    Calendar maintenanceWindows,
    PreflightPolicy preflight,
    List<String> groupOrder,
    AnalysisPolicy analysis) {

  /**
   * What the rollout does when failures exceed the budget: pause, roll back, or end {@code Failed}.
   */
  public enum OnFailure {
    PAUSE,
    ROLLBACK,
    FAIL
  }

  /**
   * Whether approvals wait for the clusters' maintenance windows and freezes ({@code Respect}, the
   * default).
   */
  public enum Calendar {
    Respect,
    Ignore
  }

  /**
   * The first wave: {@code count} clusters, {@code percent} of them, or those matching {@code
   * selector}.
   */
  public record Canary(Integer count, Integer percent, String selector) {}

  /** A failure budget as a count or a percent of all participating clusters (both null: zero). */
  public record Budget(Integer count, Integer percent) {
    /**
     * How many failures are tolerated among {@code total} clusters (more than this exceeds the
     * budget).
     */
    public int allowed(int total) {
      if (count != null) {
        return count;
      }
      if (percent != null) {
        return (int) Math.floor(total * percent / 100.0);
      }
      return 0;
    }

    static Budget parse(Object value) {
      if (value == null) {
        return new Budget(0, null);
      }
      if (value instanceof Number n) {
        return new Budget(nonNegative("maxFailures", n.intValue()), null);
      }
      String text = value.toString().trim();
      try {
        if (text.endsWith("%")) {
          return new Budget(
              null,
              checkPercent("maxFailures", Integer.parseInt(text.substring(0, text.length() - 1))));
        }
        return new Budget(nonNegative("maxFailures", Integer.parseInt(text)), null);
      } catch (NumberFormatException e) {
        throw new StrategyException(
            "maxFailures", "maxFailures must be a count or a percent such as \"10%\"");
      }
    }

    Object toJsonValue() {
      return count != null ? (Object) count : percent + "%";
    }
  }

  public RolloutStrategy {
    order = order == null ? List.of() : List.copyOf(order);
    maxFailures = maxFailures == null ? new Budget(0, null) : maxFailures;
    onFailure = onFailure == null ? OnFailure.PAUSE : onFailure;
    maintenanceWindows = maintenanceWindows == null ? Calendar.Respect : maintenanceWindows;
    preflight = preflight == null ? PreflightPolicy.DEFAULT : preflight;
    groupOrder = groupOrder == null ? List.of() : List.copyOf(groupOrder);
    analysis = analysis == null ? AnalysisPolicy.NONE : analysis;
  }

  /**
   * The strategy as before issue 16's fields: no grouping, windows respected, the default
   * preflight.
   */
  public RolloutStrategy(
      Canary canary,
      Integer batchSize,
      Integer batchPercent,
      Integer maxUnavailable,
      Budget maxFailures,
      int soakSeconds,
      int progressDeadlineSeconds,
      OnFailure onFailure,
      List<String> order) {
    this(
        canary,
        batchSize,
        batchPercent,
        maxUnavailable,
        maxFailures,
        soakSeconds,
        progressDeadlineSeconds,
        onFailure,
        order,
        null,
        null,
        null,
        null,
        null);
  }

  /** The same strategy with other analysis checks (those of its templates, resolved). */
  public RolloutStrategy withAnalysis(AnalysisPolicy checks) {
    return new RolloutStrategy(
        canary,
        batchSize,
        batchPercent,
        maxUnavailable,
        maxFailures,
        soakSeconds,
        progressDeadlineSeconds,
        onFailure,
        order,
        groupBy,
        maintenanceWindows,
        preflight,
        groupOrder,
        checks);
  }

  /** Whether this rollout waits for maintenance windows and freezes. */
  public boolean respectsCalendar() {
    return maintenanceWindows == Calendar.Respect;
  }

  /**
   * Parses and checks a strategy; a bad field throws {@link IllegalArgumentException} naming it.
   */
  public static RolloutStrategy fromJson(JsonObject json) {
    JsonObject s = json == null ? new JsonObject() : json;
    Canary canary = null;
    JsonObject c = s.getJsonObject("canary");
    if (c != null) {
      Integer count = c.getInteger("count");
      Integer percent = c.getInteger("percent");
      String selector = c.getString("selector");
      int given = (count != null ? 1 : 0) + (percent != null ? 1 : 0) + (selector != null ? 1 : 0);
      if (given != 1) {
        throw new StrategyException(
            "canary", "canary needs exactly one of count, percent, selector");
      }
      if (count != null && count < 1) {
        throw new StrategyException("canary.count", "canary.count must be at least 1");
      }
      if (percent != null) {
        checkPercent("canary.percent", percent);
      }
      if (selector != null) {
        try {
          LabelSelector.parse(selector);
        } catch (IllegalArgumentException e) {
          throw new StrategyException("canary.selector", "canary.selector: " + e.getMessage());
        }
      }
      canary = new Canary(count, percent, selector);
    }
    Integer batchSize = s.getInteger("batchSize");
    Integer batchPercent = s.getInteger("batchPercent");
    if (batchSize != null && batchPercent != null) {
      throw new StrategyException("batchPercent", "give batchSize or batchPercent, not both");
    }
    if (batchSize != null && batchSize < 1) {
      throw new StrategyException("batchSize", "batchSize must be at least 1");
    }
    if (batchPercent != null) {
      checkPercent("batchPercent", batchPercent);
    }
    Integer maxUnavailable = s.getInteger("maxUnavailable");
    if (maxUnavailable != null && maxUnavailable < 1) {
      throw new StrategyException("maxUnavailable", "maxUnavailable must be at least 1");
    }
    int soak = nonNegative("soakSeconds", s.getInteger("soakSeconds", 0));
    int deadline = s.getInteger("progressDeadlineSeconds", 600);
    if (deadline < 1) {
      throw new StrategyException(
          "progressDeadlineSeconds", "progressDeadlineSeconds must be at least 1");
    }
    String onFailure = s.getString("onFailure", "pause");
    OnFailure policy =
        switch (onFailure) {
          case "pause" -> OnFailure.PAUSE;
          case "rollback" -> OnFailure.ROLLBACK;
          case "fail" -> OnFailure.FAIL;
          default ->
              throw new StrategyException("onFailure", "onFailure must be pause, rollback or fail");
        };
    List<String> order = new ArrayList<>();
    JsonArray keys = s.getJsonArray("order");
    if (keys != null) {
      for (Object k : keys) {
        if (!(k instanceof String key) || !LabelSelector.validKey(key)) {
          throw new StrategyException("order", "order must list label keys");
        }
        order.add(key);
      }
    }
    String groupBy = s.getString("groupBy");
    if (groupBy != null && !LabelSelector.validKey(groupBy)) {
      throw new StrategyException("groupBy", "groupBy must be a label key");
    }
    List<String> groupOrder = groupOrder(s.getJsonArray("groupOrder"), groupBy);
    Calendar calendar;
    try {
      calendar = Calendar.valueOf(s.getString("maintenanceWindows", "Respect"));
    } catch (IllegalArgumentException e) {
      throw new StrategyException(
          "maintenanceWindows", "maintenanceWindows must be Respect or Ignore");
    }
    return new RolloutStrategy(
        canary,
        batchSize,
        batchPercent,
        maxUnavailable,
        Budget.parse(s.getValue("maxFailures")),
        soak,
        deadline,
        policy,
        order,
        groupBy,
        calendar,
        PreflightPolicy.fromStrategy(s),
        groupOrder,
        AnalysisPolicy.fromStrategy(s));
  }

  /** {@code groupOrder}: distinct label values, only with {@code groupBy}. */
  private static List<String> groupOrder(JsonArray values, String groupBy) {
    List<String> out = new ArrayList<>();
    if (values == null) {
      return out;
    }
    if (groupBy == null) {
      throw new StrategyException(
          "groupOrder", "groupOrder orders the groups of groupBy: give groupBy too");
    }
    for (int i = 0; i < values.size(); i++) {
      if (!(values.getValue(i) instanceof String value)
          || !LabelSelector.validValue(value)
          || value.isEmpty()) {
        throw new StrategyException("groupOrder." + i, "groupOrder must list label values");
      }
      if (out.contains(value)) {
        throw new StrategyException("groupOrder." + i, "groupOrder lists " + value + " twice");
      }
      out.add(value);
    }
    return out;
  }

  /** The canonical JSON form (what is stored and returned). */
  public JsonObject toJson() {
    JsonObject out = new JsonObject();
    if (canary != null) {
      JsonObject c = new JsonObject();
      if (canary.count() != null) {
        c.put("count", canary.count());
      }
      if (canary.percent() != null) {
        c.put("percent", canary.percent());
      }
      if (canary.selector() != null) {
        c.put("selector", canary.selector());
      }
      out.put("canary", c);
    }
    if (batchSize != null) {
      out.put("batchSize", batchSize);
    }
    if (batchPercent != null) {
      out.put("batchPercent", batchPercent);
    }
    if (maxUnavailable != null) {
      out.put("maxUnavailable", maxUnavailable);
    }
    out.put("maxFailures", maxFailures.toJsonValue());
    out.put("soakSeconds", soakSeconds).put("progressDeadlineSeconds", progressDeadlineSeconds);
    out.put("onFailure", onFailure.name().toLowerCase(Locale.ROOT));
    if (!order.isEmpty()) {
      out.put("order", new JsonArray(new ArrayList<>(order)));
    }
    if (groupBy != null) {
      out.put("groupBy", groupBy);
    }
    if (!groupOrder.isEmpty()) {
      out.put("groupOrder", new JsonArray(new ArrayList<>(groupOrder)));
    }
    out.put("maintenanceWindows", maintenanceWindows.name());
    preflight.writeTo(out);
    analysis.writeTo(out);
    return out;
  }

  private static int nonNegative(String field, int value) {
    if (value < 0) {
      throw new StrategyException(field, field + " must not be negative");
    }
    return value;
  }

  private static int checkPercent(String field, int value) {
    if (value < 1 || value > 100) {
      throw new StrategyException(field, field + " must be between 1 and 100");
    }
    return value;
  }
}
