package io.olmstead.controlplane.cli.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code get --watch} prints again after a refresh: the objects whose row changed (ages and
 * last-seen times left out, or every refresh would print every row) and those gone. Pure.
 */
final class WatchChanges {
  private static final Set<String> TIME_COLUMNS = Set.of("age", "last-seen");

  private WatchChanges() {}

  /** The row's cells but its time columns, as one comparable string. */
  static String withoutAges(List<String> columns, List<String> row) {
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < row.size(); i++) {
      if (!TIME_COLUMNS.contains(columns.get(i))) {
        kept.add(row.get(i));
      }
    }
    return String.join("\u0000", kept);
  }

  /** The names new in {@code after} or shown differently, in {@code after}'s order. */
  static List<String> changed(Map<String, String> before, Map<String, String> after) {
    return after.entrySet().stream()
        .filter(e -> !e.getValue().equals(before.get(e.getKey())))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** The names in {@code before} no longer in {@code after}. */
  static List<String> gone(Map<String, String> before, Map<String, String> after) {
    return before.keySet().stream().filter(key -> !after.containsKey(key)).toList();
  }
}
