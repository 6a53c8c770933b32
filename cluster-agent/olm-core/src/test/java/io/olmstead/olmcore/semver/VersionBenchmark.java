package io.olmstead.olmcore.semver;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Cost of the version operations done per bundle while indexing and resolving a catalog. Run with
 * {@code java -cp <test classpath> io.olmstead.olmcore.semver.VersionBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class VersionBenchmark {

  /**
   * A mix shaped like real catalogs: mostly releases, some pre-releases, a little build metadata.
   */
  static final String[] VERSIONS = {
    "1.2.3",
    "0.9.4",
    "1.0.0-rc.1",
    "2.15.0",
    "0.0.1-alpha.preview+123.456",
    "4.8.0",
    "1.14.2",
    "3.16.2-final"
  };

  Version a;
  Version b;
  VersionRange range;

  @Setup
  public void setUp() throws VersionException {
    a = Version.parse("1.0.0-beta.11");
    b = Version.parse("1.0.0-beta.2");
    range = VersionRange.parse(">=1.0.0 <2.0.0 || >=3.0.1 <4.0.0 !=3.0.3 || >=5.0.0");
  }

  /** Parses all eight versions; divide by 8 for one. */
  @Benchmark
  public void parseEight(Blackhole bh) throws VersionException {
    for (String v : VERSIONS) {
      bh.consume(Version.parse(v));
    }
  }

  @Benchmark
  public int comparePreReleases() {
    return a.compareTo(b);
  }

  @Benchmark
  public VersionRange parseRecommendedRange() throws VersionException {
    return VersionRange.parse(">=0.2.0-0 <0.3.1-0");
  }

  @Benchmark
  public boolean matchComplexRange() {
    return range.contains(a);
  }

  public static void main(String[] args) throws Exception {
    new Runner(
            new OptionsBuilder()
                .include(VersionBenchmark.class.getName())
                .forks(1)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1))
                .build())
        .run();
  }
}
