package io.olmstead.olmcore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Complements the JMH run on a shared, loaded machine: floor and parse+validate+index alternate
 * round by round in one JVM, so load drift hits both equally; reports medians.
 */
public final class InterleavedParseBench {

  private static volatile Object sink;

  private InterleavedParseBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    byte[] data = Files.readAllBytes(BenchData.catalogs().resolve(FbcParseBenchmark.FILE));
    ObjectMapper mapper = new ObjectMapper();
    FbcParser parser = new FbcParser();
    List<Double> floor = new ArrayList<>();
    List<Double> ours = new ArrayList<>();
    for (int r = 0; r < rounds + 20; r++) {
      long t0 = System.nanoTime();
      try (MappingIterator<JsonNode> it = mapper.readerFor(JsonNode.class).readValues(data)) {
        while (it.hasNext()) {
          sink = it.next();
        }
      }
      long t1 = System.nanoTime();
      sink =
          CatalogValidator.validate(
                  parser.parse(FbcParseBenchmark.FILE, data), ValidationMode.STRICT)
              .catalog()
              .orElseThrow();
      long t2 = System.nanoTime();
      if (r >= 20) {
        floor.add((t1 - t0) / 1e6);
        ours.add((t2 - t1) / 1e6);
      }
    }
    Collections.sort(floor);
    Collections.sort(ours);
    double mb = data.length / 1e6;
    double f = floor.get(floor.size() / 2);
    double o = ours.get(ours.size() / 2);
    System.out.printf(
        Locale.ROOT,
        "interleaved medians over %d rounds: floor %.1f ms (%.1f MB/s), "
            + "parse+validate+index %.1f ms (%.1f MB/s), ratio %.2fx%n",
        rounds,
        f,
        mb / (f / 1000),
        o,
        mb / (o / 1000),
        o / f);
  }
}
