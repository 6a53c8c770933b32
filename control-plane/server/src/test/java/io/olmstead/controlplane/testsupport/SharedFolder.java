package io.olmstead.controlplane.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The one way this module's tests reach the team's shared folder (real catalogs, HyperShift data):
 * the system property {@code olmstead.shared.dir} (the build sets it to {@code ../shared}), else
 * {@code OLMSTEAD_SHARED_DIR}, else {@code shared} beside the checkout. A test that needs a missing
 * part of it is skipped, saying which; a fresh clone has no {@code ../shared}. {@code .ci/run}
 * points the property at a folder that does not exist to prove it.
 */
public final class SharedFolder {
  public static final String PROPERTY = "olmstead.shared.dir";

  private SharedFolder() {}

  /** The shared folder as configured; it may not exist. */
  public static Path root() {
    String property = System.getProperty(PROPERTY);
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath().normalize();
    }
    String env = System.getenv("OLMSTEAD_SHARED_DIR");
    if (env != null && !env.isBlank()) {
      return Path.of(env).toAbsolutePath().normalize();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("mvnw"))) {
        return dir.resolveSibling("shared");
      }
    }
    return Path.of("..", "..", "shared").toAbsolutePath().normalize();
  }

  /** {@code relative} under the shared folder, when it exists. */
  public static Optional<Path> find(String relative) {
    Path path = root().resolve(relative);
    return Files.exists(path) ? Optional.of(path) : Optional.empty();
  }

  /**
   * {@code relative} under the shared folder; skips the calling test, naming what is missing, when
   * it is absent.
   */
  public static Path require(String relative) {
    Optional<Path> path = find(relative);
    assumeTrue(path.isPresent(), () -> missing(relative));
    return path.get();
  }

  /** The skip message: which part of which folder is missing, and how to point the tests at it. */
  public static String missing(String relative) {
    return "the shared folder's "
        + relative
        + " is missing (looked at "
        + root().resolve(relative)
        + "); a clone "
        + "without ../shared skips this test: set -D"
        + PROPERTY
        + "=DIR or OLMSTEAD_SHARED_DIR to run it";
  }
}
