package io.olmstead.agent.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.olmstead.agent.reconcile.CatalogProvider;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcException;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

  /**
   * The bundled catalog with channel {@code from} of {@code packageName} renamed {@code to} (default channel included),
   * for channel names real catalogs use ({@code 3.x}, {@code Stable}) that the bundled packages do not.
   */
  public static Catalog withChannelRenamed(String packageName, String from, String to) {
    bundled();
    Path dir = sharedDir().resolve("catalogs/bundled");
    try (var paths = Files.walk(dir)) {
      Map<String, byte[]> files = new TreeMap<>();
      for (Path file : paths.filter(Files::isRegularFile).toList()) {
        String rel = dir.relativize(file).toString().replace('\\', '/');
        String text = Files.readString(file);
        if (rel.startsWith(packageName + "/")) {
          text = text.replace("\"" + from + "\"", "\"" + to + "\"");
        }
        files.put(rel, text.getBytes(StandardCharsets.UTF_8));
      }
      return CatalogValidator.validate(new FbcParser().parseFiles(files), ValidationMode.LENIENT).catalog()
          .orElseThrow(() -> new IllegalStateException("renamed catalog did not validate"));
    } catch (IOException | FbcException e) {
      throw new IllegalStateException("bundled catalog could not be rewritten: " + e.getMessage(), e);
    }
  }

  /** A provider serving {@code catalog} under {@link #CATALOG}. */
  public static CatalogProvider provider(Catalog catalog) {
    return (name, digest) -> CATALOG.equals(name) ? Optional.of(catalog) : Optional.empty();
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
