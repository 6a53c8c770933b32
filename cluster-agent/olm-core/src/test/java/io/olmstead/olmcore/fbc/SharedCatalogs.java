package io.olmstead.olmcore.fbc;

import io.olmstead.olmcore.testing.SharedFolder;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The shared folder's {@code catalogs/}, found through {@link SharedFolder}; tests skip, saying so,
 * when absent.
 */
public final class SharedCatalogs {

  private SharedCatalogs() {}

  /** The catalogs folder, or empty when it cannot be found (callers may skip). */
  public static Optional<Path> find() {
    return SharedFolder.find("catalogs");
  }

  /**
   * A path under the catalogs folder; skips the calling test with a clear message when it is
   * absent.
   */
  public static Path require(String relative) {
    return SharedFolder.require("catalogs/" + relative);
  }
}
