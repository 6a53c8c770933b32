package io.olmstead.olmcore.maturity;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects findings up to a bound, so a bundle with thousands of broken rules keeps memory and
 * reports bounded.
 */
final class Findings {

  /** At most this many findings per report; the rest are counted, not kept. */
  static final int MAX = 500;

  private final List<Finding> list = new ArrayList<>();
  private int dropped;

  void add(
      String rule,
      Category category,
      Severity severity,
      String object,
      String field,
      String message) {
    add(new Finding(rule, category, severity, object, field, message, null));
  }

  void add(Finding f) {
    if (list.size() < MAX) {
      list.add(f);
    } else {
      dropped++;
    }
  }

  List<Finding> list() {
    return list;
  }

  int dropped() {
    return dropped;
  }
}
