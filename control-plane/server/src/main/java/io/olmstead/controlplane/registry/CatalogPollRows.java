package io.olmstead.controlplane.registry;

import java.util.ArrayList;
import java.util.List;

/**
 * What the catalog poll gauges export, one row per catalog with an image source, at most {@code
 * cap} rows: past the cap the remaining catalogs (in name order) fold into one {@code other} row
 * that is failing when any of them is and carries the oldest of their last successes. Pure.
 */
final class CatalogPollRows {
  private CatalogPollRows() {}

  /**
   * One catalog's poll state; {@code lastSuccessEpochSeconds} 0 when it never polled without an
   * error.
   */
  record Row(String catalog, boolean failing, double lastSuccessEpochSeconds) {}

  /** {@code rows} in name order, folded to at most {@code cap} rows. */
  static List<Row> fold(List<Row> rows, int cap) {
    if (rows.size() <= cap) {
      return rows;
    }
    List<Row> out = new ArrayList<>(rows.subList(0, cap - 1));
    boolean failing = false;
    double oldest = Double.MAX_VALUE;
    for (Row r : rows.subList(cap - 1, rows.size())) {
      failing |= r.failing();
      oldest = Math.min(oldest, r.lastSuccessEpochSeconds());
    }
    out.add(new Row(BoundedLabel.OTHER, failing, oldest));
    return out;
  }
}
