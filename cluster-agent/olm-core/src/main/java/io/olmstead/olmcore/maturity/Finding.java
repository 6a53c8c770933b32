package io.olmstead.olmcore.maturity;

import java.util.Objects;

/**
 * One broken rule: {@code object} names the manifest ("ClusterServiceVersion etcdoperator.v0.9.4"),
 * {@code field} the path inside it, {@code removedIn} the Kubernetes version for {@code
 * portability/removed-api} (else null).
 */
public record Finding(
    String rule,
    Category category,
    Severity severity,
    String object,
    String field,
    String message,
    String removedIn) {

  public Finding {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(severity, "severity");
  }

  /**
   * What a diff compares: the same rule broken at the same place is the same finding across
   * versions.
   */
  public String key() {
    // a CSV is renamed every version (etcdoperator.v0.9.2 -> v0.9.4): compare CSV findings by kind
    // only
    String o = object != null && object.startsWith(CSV_PREFIX) ? "ClusterServiceVersion" : object;
    return rule + "|" + o + "|" + field;
  }

  private static final String CSV_PREFIX = "ClusterServiceVersion ";
}
