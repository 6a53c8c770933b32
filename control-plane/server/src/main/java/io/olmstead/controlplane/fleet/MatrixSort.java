package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.problem.ApiException;
import java.util.List;

/**
 * The fleet matrix's order: by cluster name, or by one column's version or phase, ascending or
 * ({@code -}) descending; parsed from {@code name}, {@code version:SUB}, {@code phase:SUB}. Pure.
 */
record MatrixSort(Key key, String subscription, boolean descending) {
  /** What the rows are ordered by before the cluster name. */
  enum Key {
    name,
    version,
    phase
  }

  static final MatrixSort BY_NAME = new MatrixSort(Key.name, null, false);

  /**
   * Parses {@code text} (null: by name); a column not among {@code columns} is a 400 naming {@code
   * query.sort}.
   */
  static MatrixSort parse(String text, List<String> columns) {
    if (text == null || text.isEmpty()) {
      return BY_NAME;
    }
    boolean descending = text.startsWith("-");
    String body = descending ? text.substring(1) : text;
    if (body.equals("name")) {
      return new MatrixSort(Key.name, null, descending);
    }
    int colon = body.indexOf(':');
    Key key;
    try {
      key = colon < 0 ? null : Key.valueOf(body.substring(0, colon));
    } catch (IllegalArgumentException e) {
      key = null;
    }
    if (key == null || key == Key.name) {
      throw ApiException.badRequest(
          "sort must be name, version:SUBSCRIPTION or phase:SUBSCRIPTION, optionally " + "after -",
          "query.sort");
    }
    String sub = body.substring(colon + 1);
    if (!columns.contains(sub)) {
      throw ApiException.badRequest(
          "sort names subscription " + sub + ", which is not a column of this matrix",
          "query.sort");
    }
    return new MatrixSort(key, sub, descending);
  }

  /** How many values a cursor of this order holds: the name, or (not running, sort value, name). */
  int cursorSize() {
    return key == Key.name ? 1 : 3;
  }
}
