package io.olmstead.olmcore.maturity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.resolver.RealCatalogs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Benchmark (runs with {@code -Dolmstead.bench=true}: timings are goals, not unit tests). Times the
 * report of each of the 29 bundles of bundled/ (goal: median below 5 ms), both with the manifests
 * already decoded and including the base64+YAML/JSON decode of every olm.bundle.object. Prints the
 * medians.
 */
class MaturityBenchTest {

  private static final int WARMUP = 30;
  private static final int ROUNDS = 50;

  @Test
  void medianReportTimePerBundledBundleIsBelowFiveMilliseconds() {
    assumeTrue(Boolean.getBoolean("olmstead.bench"), "benchmark: run with -Dolmstead.bench=true");
    List<Bundle> bundles = new ArrayList<>();
    List<CatalogPackage> pkgs = new ArrayList<>();
    for (CatalogPackage p : RealCatalogs.bundled().packages()) {
      for (Bundle b : p.bundles()) {
        bundles.add(b);
        pkgs.add(p);
      }
    }
    MaturityAnalyzer analyzer = new MaturityAnalyzer();
    double rules = median(bundles, pkgs, analyzer, false);
    double withDecode = median(bundles, pkgs, analyzer, true);
    System.out.printf(
        "maturity report, %d bundles x %d rounds: median %.3f ms per bundle (rules only), "
            + "%.3f ms (decode + rules)%n",
        bundles.size(), ROUNDS, rules, withDecode);
    assertThat(bundles).hasSize(29);
    assertThat(withDecode).isLessThan(5.0);
  }

  private static double median(
      List<Bundle> bundles, List<CatalogPackage> pkgs, MaturityAnalyzer a, boolean decode) {
    long[] times = new long[bundles.size() * ROUNDS];
    int n = 0;
    for (int round = 0; round < WARMUP + ROUNDS; round++) {
      for (int i = 0; i < bundles.size(); i++) {
        Bundle b = bundles.get(i);
        Bundle input =
            decode
                ? new Bundle(
                    b.packageName(), b.name(), b.image(), b.properties(), b.relatedImages())
                : b;
        long start = System.nanoTime();
        MaturityReport r = a.analyze(input, pkgs.get(i));
        long t = System.nanoTime() - start;
        assertThat(r.bundle()).isEqualTo(b.name());
        if (round >= WARMUP) {
          times[n++] = t;
        }
      }
    }
    Arrays.sort(times);
    return times[times.length / 2] / 1e6;
  }
}
