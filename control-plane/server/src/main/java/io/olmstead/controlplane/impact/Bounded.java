package io.olmstead.controlplane.impact;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A list cut to a limit, as the report writes it: the entries kept, and whether and how many were
 * dropped.
 */
final class Bounded {
  private Bounded() {}

  /** {@code items} cut to {@code limit}. */
  static JsonArray of(List<JsonObject> items, int limit) {
    JsonArray out = new JsonArray();
    items.stream().limit(Math.max(0, limit)).forEach(out::add);
    return out;
  }

  /**
   * Puts {@code name} (cut to {@code limit}) into {@code into}; when cut, {@code <name>Truncated}
   * and its count.
   */
  static JsonObject put(JsonObject into, String name, List<JsonObject> items, int limit) {
    into.put(name, of(items, limit));
    if (items.size() > limit) {
      into.put(name + "Truncated", true).put(name + "Count", items.size());
    }
    return into;
  }
}
