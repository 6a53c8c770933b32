package io.olmstead.olmcore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Parse + validate + index of community-v4.20.jsonl against the floor: a plain Jackson tree parse
 * of the same bytes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FbcParseBenchmark {

  static final String FILE = "community-v4.20.jsonl";

  byte[] bytes;
  ObjectMapper mapper;
  FbcParser parser;

  @Setup
  public void load() throws Exception {
    bytes = Files.readAllBytes(BenchData.catalogs().resolve(FILE));
    mapper = new ObjectMapper();
    parser = new FbcParser();
  }

  /** The physical floor: every blob read into a Jackson tree, nothing else. */
  @Benchmark
  public void jacksonReadTree(Blackhole bh) throws Exception {
    try (MappingIterator<JsonNode> it = mapper.readerFor(JsonNode.class).readValues(bytes)) {
      while (it.hasNext()) {
        bh.consume(it.next());
      }
    }
  }

  /** What a catalog import costs: parse, validate (STRICT) and index. */
  @Benchmark
  public Catalog parseValidateIndex() throws Exception {
    return CatalogValidator.validate(parser.parse(FILE, bytes), ValidationMode.STRICT)
        .catalog()
        .orElseThrow();
  }
}
