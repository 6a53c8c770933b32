package io.olmstead.olmcore.semver;

import io.olmstead.olmcore.testing.SharedFolder;
import java.nio.file.Path;

/**
 * The shared folder's {@code catalogs/}, found through {@link SharedFolder}; skips the test when
 * absent.
 */
public final class SharedCatalogs {

  private SharedCatalogs() {}

  /**
   * The catalogs folder, or a skipped test (JUnit assumption) with a message saying where it
   * looked.
   */
  public static Path dir() {
    return SharedFolder.require("catalogs");
  }
}
