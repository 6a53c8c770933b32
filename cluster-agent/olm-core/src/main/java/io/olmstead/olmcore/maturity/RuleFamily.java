package io.olmstead.olmcore.maturity;

import java.util.List;

/**
 * One family of related rules (one class each); pure: reads a {@link BundleView}, adds findings.
 */
interface RuleFamily {

  /** The rule ids this family can report. */
  List<String> rules();

  /**
   * False for rules that read only CSV metadata and related images (they run on metadata-only
   * catalogs too).
   */
  default boolean needsObjects() {
    return true;
  }

  void check(BundleView view, Findings out);
}
