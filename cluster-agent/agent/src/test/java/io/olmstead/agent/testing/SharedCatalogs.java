package io.olmstead.agent.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The real bundles of {@code ../shared/catalogs/bundled} (system property {@code olmstead.shared.dir}, else env
 * {@code OLMSTEAD_SHARED_DIR}, else {@code ../shared}); tests skip with a message when they are absent.
 */
public final class SharedCatalogs {
  public static final String CATALOG = "community";
  private static volatile Catalog bundled;

  private SharedCatalogs() {}

  /** The validated bundled catalog, parsed once per JVM. */
  public static synchronized Catalog bundled() {
    if (bundled == null) {
      Path dir = sharedDir().resolve("catalogs/bundled");
      assumeTrue(Files.isDirectory(dir), "shared catalogs not found (set -Dolmstead.shared.dir or OLMSTEAD_SHARED_DIR); "
          + "looked at " + dir.toAbsolutePath());
      try {
        bundled = CatalogValidator.validate(new FbcParser().parseDirectory(dir), ValidationMode.LENIENT).catalog()
            .orElseThrow(() -> new IllegalStateException("bundled catalog did not validate"));
      } catch (FbcException e) {
        throw new IllegalStateException("bundled catalog did not parse: " + e.getMessage(), e);
      }
    }
    return bundled;
  }

  /** A provider serving the bundled catalog under {@link #CATALOG}. */
  public static CatalogProvider provider() {
    Catalog catalog = bundled();
    return (name, digest) -> CATALOG.equals(name) ? Optional.of(catalog) : Optional.empty();
  }

  private static Path sharedDir() {
    String prop = System.getProperty("olmstead.shared.dir");
    if (prop != null && !prop.isBlank()) {
      return Path.of(prop);
    }
    String env = System.getenv("OLMSTEAD_SHARED_DIR");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of("../shared");
  }
}
