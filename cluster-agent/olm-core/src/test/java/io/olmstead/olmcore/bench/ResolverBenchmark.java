package io.olmstead.olmcore.bench;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.ChannelGraph;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.resolver.CatalogSource;
import io.olmstead.olmcore.resolver.Resolution;
import io.olmstead.olmcore.resolver.Resolver;
import io.olmstead.olmcore.resolver.SubscriptionRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Resolution against the indexed {@code derived-all-history} catalog (lenient): one subscription
 * whose head has dependencies, and a namespace of 20 subscriptions that resolve together, first
 * every package with a channel whose head has dependencies that fits (the catalog has 18 such
 * packages), then others by name. Needs ../shared/catalogs (see {@link BenchData}). Run from the
 * project root:
 *
 * <pre>
 * ./mvnw -o -q -pl cluster-agent/olm-core test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath
 * java -cp cluster-agent/olm-core/target/test-classes:cluster-agent/olm-core/target/classes:$(cat cluster-agent/olm-core/target/bench.classpath) \
 *      -Dolmstead.shared.dir=../shared org.openjdk.jmh.Main ResolverBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class ResolverBenchmark {
  private static final String CATALOG = "derived";

  private Resolver resolver;
  private List<CatalogSource> catalogs;
  private List<SubscriptionRequest> one;
  private List<SubscriptionRequest> twenty;

  @Setup
  public void setUp() throws Exception {
    Catalog derived =
        CatalogValidator.validate(
                new FbcParser().parseDirectory(BenchData.catalogs().resolve("derived-all-history")),
                ValidationMode.LENIENT)
            .catalog()
            .orElseThrow();
    resolver = new Resolver();
    catalogs = List.of(new CatalogSource(CATALOG, 0, derived));
    List<CatalogPackage> packages = new ArrayList<>(derived.packages());
    // Packages with a channel whose head has dependencies come first (only 18 of the 333 have one);
    // then by name.
    packages.sort(
        Comparator.comparing((CatalogPackage p) -> channelWithDependencies(p) == null)
            .thenComparing(CatalogPackage::name));
    List<SubscriptionRequest> chosen = new ArrayList<>();
    for (CatalogPackage p : packages) {
      if (chosen.size() == 20) {
        break;
      }
      List<SubscriptionRequest> attempt = new ArrayList<>(chosen);
      attempt.add(
          new SubscriptionRequest(
              "sub-" + p.name(), CATALOG, p.name(), channelWithDependencies(p), null, null));
      if (resolver.resolve(catalogs, attempt, List.of()).satisfiable()) {
        chosen = attempt;
      }
    }
    twenty = List.copyOf(chosen);
    one = List.of(twenty.get(0));
    Resolution check = resolver.resolve(catalogs, twenty, List.of());
    if (!check.satisfiable() || twenty.size() != 20) {
      throw new IllegalStateException(
          "benchmark namespace not set up: " + twenty.size() + " " + check.message());
    }
  }

  /** The default channel if its head has dependencies, else another such channel, else null. */
  private static String channelWithDependencies(CatalogPackage p) {
    List<ChannelGraph> channels = new ArrayList<>(p.channels().values());
    channels.sort(
        Comparator.comparing((ChannelGraph g) -> !g.name().equals(p.defaultChannel()))
            .thenComparing(ChannelGraph::name));
    for (ChannelGraph g : channels) {
      Bundle head = g.head().flatMap(p::bundle).orElse(null);
      if (head != null && (!head.requiredPackages().isEmpty() || !head.requiredGvks().isEmpty())) {
        return g.name();
      }
    }
    return null;
  }

  @Benchmark
  public Resolution oneSubscription() {
    return resolver.resolve(catalogs, one, List.of());
  }

  @Benchmark
  public Resolution twentySubscriptions() {
    return resolver.resolve(catalogs, twenty, List.of());
  }

  /**
   * A cross-check less sensitive to a busy machine than wall-clock sampling: thread CPU time per
   * resolution, median and p99 over {@code args[0]} (default 20000) resolutions after as many
   * warm-up ones. Same classpath as JMH; main class {@code
   * io.olmstead.olmcore.bench.ResolverBenchmark}.
   */
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    ResolverBenchmark b = new ResolverBenchmark();
    b.setUp();
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    for (String which : new String[] {"oneSubscription", "twentySubscriptions"}) {
      long[] cpu = new long[n];
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) {
          long start = threads.getCurrentThreadCpuTime();
          Resolution r =
              which.equals("oneSubscription") ? b.oneSubscription() : b.twentySubscriptions();
          cpu[i] = threads.getCurrentThreadCpuTime() - start;
          if (!r.satisfiable()) {
            throw new IllegalStateException(r.message());
          }
        }
      }
      java.util.Arrays.sort(cpu);
      System.out.printf(
          java.util.Locale.ROOT,
          "%s: thread CPU time per resolution: median %.1f us, p99 %.1f us%n",
          which,
          cpu[n / 2] / 1e3,
          cpu[(int) (n * 0.99)] / 1e3);
    }
  }
}
