package io.olmstead.olmcore.semver;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates {@code ../shared/catalogs}: system property {@code olmstead.shared.dir}, else environment
 * {@code OLMSTEAD_SHARED_DIR}, else {@code ../shared} next to the project root; skips the test when absent.
 */
public final class SharedCatalogs {

    private SharedCatalogs() {
    }

    /** The catalogs folder, or a skipped test (JUnit assumption) with a message saying where it looked. */
    public static Path dir() {
        Path shared = sharedDir();
        Path catalogs = shared == null ? null : shared.resolve("catalogs");
        assumeTrue(catalogs != null && Files.isDirectory(catalogs),
                "shared catalogs not found (set -Dolmstead.shared.dir or OLMSTEAD_SHARED_DIR); looked at " + catalogs);
        return catalogs;
    }

    private static Path sharedDir() {
        String prop = System.getProperty("olmstead.shared.dir");
        if (prop != null && !prop.isBlank() && Files.isDirectory(Path.of(prop))) {
            return Path.of(prop);
        }
        String env = System.getenv("OLMSTEAD_SHARED_DIR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("mvnw")) && Files.isDirectory(p.resolve("cluster-agent"))) {
                return p.resolveSibling("shared");
            }
        }
        return null;
    }
}
