package io.olmstead.olmcore.bench;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.DeclarativeConfig;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Retained heap of indexed catalogs, measured as used heap after full GCs with and without the
 * catalog held. Only the {@link Catalog} is kept (the raw DeclarativeConfig is dropped, as a
 * long-lived cache would do).
 */
public final class HeapFootprint {

  private HeapFootprint() {}

  /** Measures one catalog folder (or file) under the shared catalogs; returns retained bytes. */
  public static long retainedBytes(Path path, ValidationMode mode) throws Exception {
    long before = usedAfterGc();
    Catalog catalog = load(path, mode);
    long after = usedAfterGc();
    if (catalog.bundleCount() == 0) {
      throw new IllegalStateException("empty catalog");
    }
    return after - before;
  }

  static Catalog load(Path path, ValidationMode mode) throws Exception {
    FbcParser parser = new FbcParser();
    DeclarativeConfig cfg =
        Files.isDirectory(path)
            ? parser.parseDirectory(path)
            : parser.parse(path.getFileName().toString(), Files.readAllBytes(path));
    return CatalogValidator.validate(cfg, mode).catalog().orElseThrow();
  }

  static long usedAfterGc() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 6; i++) {
      System.gc();
      Thread.sleep(100);
      best = Math.min(best, rt.totalMemory() - rt.freeMemory());
    }
    return best;
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    Path root = BenchData.catalogs();
    // warm the classes so that their metadata is not counted in the first measurement
    load(root.resolve("community-v4.20.jsonl"), ValidationMode.STRICT);
    for (String[] c :
        new String[][] {
          {"community-v4.20", "STRICT"},
          {"community-v4.20.jsonl", "STRICT"},
          {"derived-all-history", "LENIENT"}
        }) {
      long bytes = retainedBytes(root.resolve(c[0]), ValidationMode.valueOf(c[1]));
      out.printf(
          Locale.ROOT,
          "retained heap of indexed %-24s (%s): %6.1f MiB%n",
          c[0],
          c[1],
          bytes / 1048576.0);
    }
  }
}
