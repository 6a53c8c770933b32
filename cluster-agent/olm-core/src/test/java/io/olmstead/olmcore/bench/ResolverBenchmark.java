package io.olmstead.olmcore.bench;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.graph.ChannelGraph;
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
 * Resolution against the indexed {@code derived-all-history} catalog (lenient): one subscription whose head has
 * dependencies, and a namespace of 20 subscriptions (those with dependencies first) that resolve together.
 * Needs ../shared/catalogs (see {@link BenchData}). Run from the project root:
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
        Catalog derived = CatalogValidator.validate(new FbcParser().parseDirectory(BenchData.catalogs().resolve("derived-all-history")),
            ValidationMode.LENIENT).catalog().orElseThrow();
        resolver = new Resolver();
        catalogs = List.of(new CatalogSource(CATALOG, 0, derived));
        List<CatalogPackage> packages = new ArrayList<>(derived.packages());
        // Packages whose default-channel head has dependencies come first; then by name, for a stable choice.
        packages.sort(Comparator.comparing((CatalogPackage p) -> !headHasDependencies(p)).thenComparing(CatalogPackage::name));
        List<SubscriptionRequest> chosen = new ArrayList<>();
        for (CatalogPackage p : packages) {
            if (chosen.size() == 20) {
                break;
            }
            List<SubscriptionRequest> attempt = new ArrayList<>(chosen);
            attempt.add(new SubscriptionRequest("sub-" + p.name(), CATALOG, p.name(), null, null, null));
            Resolution r = resolver.resolve(catalogs, attempt, List.of());
            if (r.satisfiable()) {
                chosen = attempt;
            }
        }
        twenty = List.copyOf(chosen);
        one = List.of(twenty.get(0));
        Resolution check = resolver.resolve(catalogs, twenty, List.of());
        if (!check.satisfiable() || twenty.size() != 20) {
            throw new IllegalStateException("benchmark namespace not set up: " + twenty.size() + " " + check.message());
        }
    }

    private static boolean headHasDependencies(CatalogPackage p) {
        Bundle head = p.channel(null).flatMap(ChannelGraph::head).flatMap(p::bundle).orElse(null);
        return head != null && (!head.requiredPackages().isEmpty() || !head.requiredGvks().isEmpty());
    }

    @Benchmark
    public Resolution oneSubscription() {
        return resolver.resolve(catalogs, one, List.of());
    }

    @Benchmark
    public Resolution twentySubscriptions() {
        return resolver.resolve(catalogs, twenty, List.of());
    }
}
