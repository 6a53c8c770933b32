package io.olmstead.olmcore.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the shared catalogs for benchmarks (same rules as the tests; fails loudly when absent).
 */
final class BenchData {

  private BenchData() {}

  static Path catalogs() {
    String prop = System.getProperty("olmstead.shared.dir");
    String env = System.getenv("OLMSTEAD_SHARED_DIR");
    for (String c : new String[] {prop, env, "../shared", "../../shared", "../../../shared"}) {
      if (c != null && !c.isBlank() && Files.isDirectory(Path.of(c, "catalogs"))) {
        return Path.of(c, "catalogs").toAbsolutePath().normalize();
      }
    }
    throw new IllegalStateException(
        "shared catalogs not found: set -Dolmstead.shared.dir=/path/to/shared");
  }
}
