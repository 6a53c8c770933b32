package io.olmstead.olmcore.maturity;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What an upgrade changes: findings of {@code to} not in {@code from} (introduced) and the reverse
 * (resolved).
 */
public record MaturityDiff(
    String from, String to, List<Finding> introduced, List<Finding> resolved) {

  public static MaturityDiff of(MaturityReport from, MaturityReport to) {
    return new MaturityDiff(
        from.bundle(),
        to.bundle(),
        minus(to.findings(), from.findings()),
        minus(from.findings(), to.findings()));
  }

  private static List<Finding> minus(List<Finding> a, List<Finding> b) {
    Set<String> keys = new HashSet<>();
    b.forEach(f -> keys.add(f.key()));
    List<Finding> out = new ArrayList<>();
    for (Finding f : a) {
      if (!keys.contains(f.key())) {
        out.add(f);
      }
    }
    return out;
  }
}
