package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.SharedCatalogs;
import io.olmstead.olmcore.fbc.ValidationMode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared real catalogs, parsed and indexed once per test JVM; tests skip when ../shared is
 * absent.
 */
public final class RealCatalogs {
  private static final Map<String, Catalog> LOADED = new ConcurrentHashMap<>();

  private RealCatalogs() {}

  /** {@code bundled/} (strict: it must be valid). */
  public static Catalog bundled() {
    return load("bundled", ValidationMode.STRICT);
  }

  /** {@code derived-all-history/} in lenient mode (its invalid channels left out). */
  public static Catalog derivedAllHistory() {
    return load("derived-all-history", ValidationMode.LENIENT);
  }

  private static Catalog load(String folder, ValidationMode mode) {
    var dir = SharedCatalogs.require(folder);
    return LOADED.computeIfAbsent(
        folder,
        f -> {
          try {
            var result = CatalogValidator.validate(new FbcParser().parseDirectory(dir), mode);
            return result
                .catalog()
                .orElseThrow(
                    () -> new IllegalStateException(folder + " rejected: " + result.errors()));
          } catch (Exception e) {
            throw new IllegalStateException("cannot load " + folder, e);
          }
        });
  }
}
