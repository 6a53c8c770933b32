/**
 * JMH benchmarks and heap measurements of the FBC parser and catalog index.
 *
 * <p>Run from the project root (one fork, short iterations; numbers go to docs/performance.md):
 *
 * <pre>
 * ./mvnw -o -q -pl cluster-agent/olm-core test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath
 * java -cp cluster-agent/olm-core/target/test-classes:cluster-agent/olm-core/target/classes:$(cat cluster-agent/olm-core/target/bench.classpath) \
 *      -Dolmstead.shared.dir=../shared io.olmstead.olmcore.bench.BenchMain 3 5 2
 * </pre>
 *
 * Arguments: warmup iterations, measurement iterations, seconds per iteration. Parts alone, same
 * classpath: {@code io.olmstead.olmcore.bench.InterleavedParseBench [rounds]} and {@code
 * io.olmstead.olmcore.bench.HeapFootprint}.
 */
package io.olmstead.olmcore.bench;
