package io.olmstead.olmcore.maturity;

import java.util.List;
import java.util.Map;

/**
 * The maturity report of one bundle.
 *
 * @param scores 0..100 per category: 100 minus 25 per error and 10 per warning (infos cost
 *     nothing), floored at 0
 * @param declaredCapability the capabilities annotation, null when absent
 * @param evidencedCapability the highest level the manifests evidence, null when the bundle has no
 *     objects
 * @param notChecked what could not be checked and why (for example every object rule on a
 *     metadata-only bundle)
 * @param omittedFindings findings beyond the report's bound, counted but not listed
 */
public record MaturityReport(
    String bundle,
    List<Finding> findings,
    Map<Category, Integer> scores,
    String declaredCapability,
    String evidencedCapability,
    List<String> notChecked,
    int omittedFindings) {

  public MaturityReport {
    findings = List.copyOf(findings);
    scores = Map.copyOf(scores);
    notChecked = List.copyOf(notChecked);
  }

  /** True when some finding has this rule id. */
  public boolean breaks(String rule) {
    return findings.stream().anyMatch(f -> f.rule().equals(rule));
  }
}
