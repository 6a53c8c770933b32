package io.olmstead.controlplane.signals;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The webhook events a change of a subscription's signals raises, from the signals stored at the
 * previous evaluation and the new ones: each once, when it appears, never on every evaluation.
 */
public final class SignalEvents {
  public static final String UPGRADES_AVAILABLE = "io.olmstead.subscription.upgrades.available";
  public static final String DEPRECATED = "io.olmstead.subscription.deprecated";
  public static final String STUCK = "io.olmstead.subscription.stuck";

  private SignalEvents() {}

  /** One event to send: its CloudEvents type and its {@code data}. */
  public record Event(String type, JsonObject data) {}

  /**
   * Events for what is new in {@code current} compared with {@code previous} (null: never
   * evaluated): a newest available version other than before; deprecation entries not there before;
   * clusters stuck that were not.
   */
  public static List<Event> changes(JsonObject previous, JsonObject current) {
    JsonObject before = previous == null ? new JsonObject() : previous;
    List<Event> out = new ArrayList<>();
    JsonObject upgrades = current.getJsonObject("upgradesAvailable");
    JsonObject upgradesBefore = before.getJsonObject("upgradesAvailable");
    if (upgrades != null
        && (upgradesBefore == null
            || !Objects.equals(upgrades.getString("latest"), upgradesBefore.getString("latest")))) {
      out.add(new Event(UPGRADES_AVAILABLE, upgrades.copy()));
    }
    JsonArray added = new JsonArray();
    Set<String> known = keys(before.getJsonArray("deprecations"));
    for (Object o : current.getJsonArray("deprecations", new JsonArray())) {
      JsonObject d = (JsonObject) o;
      if (!known.contains(d.getString("scope") + "/" + d.getString("name"))) {
        added.add(d.copy());
      }
    }
    if (!added.isEmpty()) {
      out.add(new Event(DEPRECATED, new JsonObject().put("deprecations", added)));
    }
    JsonObject stuck = current.getJsonObject("stuckClusters", new JsonObject());
    Set<String> stuckBefore = new HashSet<>();
    before
        .getJsonObject("stuckClusters", new JsonObject())
        .getJsonArray("clusters", new JsonArray())
        .forEach(n -> stuckBefore.add(String.valueOf(n)));
    JsonArray newlyStuck = new JsonArray();
    stuck
        .getJsonArray("clusters", new JsonArray())
        .forEach(
            n -> {
              if (!stuckBefore.contains(String.valueOf(n))) {
                newlyStuck.add(n);
              }
            });
    if (!newlyStuck.isEmpty()) {
      out.add(
          new Event(
              STUCK,
              new JsonObject()
                  .put("clusters", newlyStuck)
                  .put("count", stuck.getLong("count"))
                  .put("after", stuck.getString("after"))));
    }
    return out;
  }

  private static Set<String> keys(JsonArray deprecations) {
    Set<String> out = new HashSet<>();
    if (deprecations != null) {
      deprecations.forEach(
          o ->
              out.add(
                  ((JsonObject) o).getString("scope") + "/" + ((JsonObject) o).getString("name")));
    }
    return out;
  }
}
