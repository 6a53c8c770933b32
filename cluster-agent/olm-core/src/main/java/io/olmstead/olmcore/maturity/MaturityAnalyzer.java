package io.olmstead.olmcore.maturity;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.ChannelEntry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Runs every rule family on a bundle and scores the result; pure and thread-safe. */
public final class MaturityAnalyzer {

  private static final List<RuleFamily> FAMILIES =
      List.of(
          new MetadataRules(),
          new RbacRules(),
          new PodSecurityRules(),
          new WorkloadRules(),
          new CrdRules(),
          new KubePlusAnnotationRules(),
          new RemovedApiRules(),
          new ImageRules(),
          new CapabilityRules());

  /** Every rule id, in family order (for docs and for validating policy rule ids). */
  public static List<String> ruleIds() {
    List<String> out = new ArrayList<>();
    FAMILIES.forEach(f -> out.addAll(f.rules()));
    return out;
  }

  /**
   * The report of a catalog bundle; the package (may be null) tells whether a channel has an
   * upgrade edge.
   */
  public MaturityReport analyze(Bundle bundle, CatalogPackage pkg) {
    return analyze(BundleView.of(bundle, pkg == null ? null : upgradeEdge(pkg, bundle.name())));
  }

  public MaturityReport analyze(BundleView view) {
    Findings out = new Findings();
    List<String> notChecked = new ArrayList<>();
    for (String bad : view.undecodable()) {
      out.add(
          "lifecycle/malformed-object",
          Category.LIFECYCLE,
          Severity.ERROR,
          "bundle " + view.bundle(),
          "",
          "an object could not be read: " + bad);
    }
    for (RuleFamily family : FAMILIES) {
      if (family.needsObjects() && !view.hasObjects()) {
        notChecked.add(
            String.join(", ", family.rules()) + ": the bundle carries no objects (metadata only)");
        continue;
      }
      family.check(view, out);
    }
    if (view.hasObjects() && view.upgradeEdge() == null) {
      notChecked.add(
          CapabilityRules.EVIDENCE + " (Seamless Upgrades): the channel graph was not given");
    }
    if (view.hasObjects()) {
      notChecked.add(
          CapabilityRules.EVIDENCE + " (Deep Insights, Auto Pilot): not visible in manifests");
    }
    Map<Category, Integer> scores = new EnumMap<>(Category.class);
    for (Category c : Category.values()) {
      scores.put(c, 100);
    }
    for (Finding f : out.list()) {
      scores.merge(f.category(), -f.severity().penalty(), (a, b) -> Math.max(0, a + b));
    }
    String declared =
        view.csvMetadata() == null
            ? null
            : Json.text(view.csvMetadata().path("annotations"), "capabilities");
    String evidenced = null;
    if (view.hasObjects()) {
      int level = CapabilityRules.evidenced(view);
      evidenced = level == 0 ? "none" : MetadataRules.LEVELS.get(level - 1);
    }
    return new MaturityReport(
        view.bundle(), out.list(), scores, declared, evidenced, notChecked, out.dropped());
  }

  /** True when a channel holding the bundle has any upgrade edge (replaces, skips or skipRange). */
  static boolean upgradeEdge(CatalogPackage pkg, String bundle) {
    for (var graph : pkg.channels().values()) {
      boolean holds = false;
      boolean edge = false;
      for (ChannelEntry e : graph.entries()) {
        holds |= bundle.equals(e.name());
        edge |= e.replaces() != null || !e.skips().isEmpty() || e.skipRange() != null;
      }
      if (holds && edge) {
        return true;
      }
    }
    return false;
  }
}
