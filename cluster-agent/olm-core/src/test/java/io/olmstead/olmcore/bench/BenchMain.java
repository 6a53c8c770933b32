package io.olmstead.olmcore.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the FBC parse benchmark briefly (1 fork) and prints MB/s and the ratio to the Jackson floor,
 * then the interleaved medians (robust to load drift on a shared machine) and the retained heap
 * figures. Arguments: [warmupIterations measurementIterations secondsPerIteration].
 */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int measure = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    String shared = BenchData.catalogs().getParent().toString();
    Options opts =
        new OptionsBuilder()
            .include(FbcParseBenchmark.class.getName())
            .forks(1)
            .warmupIterations(warmup)
            .warmupTime(TimeValue.seconds(seconds))
            .measurementIterations(measure)
            .measurementTime(TimeValue.seconds(seconds))
            .jvmArgsAppend("-Xmx2g", "-Dolmstead.shared.dir=" + shared)
            .build();
    Collection<RunResult> results = new Runner(opts).run();
    double size = Files.size(BenchData.catalogs().resolve(FbcParseBenchmark.FILE)) / 1e6;
    double floor = 0;
    double ours = 0;
    for (RunResult r : results) {
      String label = r.getParams().getBenchmark();
      double ms = r.getPrimaryResult().getScore();
      if (label.endsWith("jacksonReadTree")) {
        floor = ms;
      } else {
        ours = ms;
      }
    }
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "%n%s: %.1f MB%n", FbcParseBenchmark.FILE, size);
    out.printf(
        Locale.ROOT,
        "jackson readTree (floor):      %7.1f ms/op  %6.1f MB/s%n",
        floor,
        size / (floor / 1000));
    out.printf(
        Locale.ROOT,
        "parse + validate + index:      %7.1f ms/op  %6.1f MB/s%n",
        ours,
        size / (ours / 1000));
    out.printf(Locale.ROOT, "ratio to floor:                %7.2fx%n%n", ours / floor);
    InterleavedParseBench.main(new String[0]);
    HeapFootprint.main(new String[0]);
  }
}
