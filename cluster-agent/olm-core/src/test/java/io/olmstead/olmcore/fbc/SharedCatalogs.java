package io.olmstead.olmcore.fbc;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates ../shared/catalogs for tests: system property, then environment variable, then ../shared; skips when absent. */
public final class SharedCatalogs {

    private SharedCatalogs() {
    }

    /** The catalogs folder, or empty when it cannot be found (callers may skip). */
    public static java.util.Optional<Path> find() {
        String prop = System.getProperty("olmstead.shared.dir");
        String env = System.getenv("OLMSTEAD_SHARED_DIR");
        for (String candidate : new String[] {prop, env, "../shared", "../../shared", "../../../shared"}) {
            if (candidate != null && !candidate.isBlank()) {
                Path p = Path.of(candidate).resolve("catalogs");
                if (Files.isDirectory(p)) {
                    return java.util.Optional.of(p.toAbsolutePath().normalize());
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** A path under the catalogs folder; skips the calling test with a clear message when it is absent. */
    public static Path require(String relative) {
        Path root = find().orElse(null);
        Assumptions.assumeTrue(root != null,
            "shared catalogs not found (set -Dolmstead.shared.dir or OLMSTEAD_SHARED_DIR); skipping");
        Path p = root.resolve(relative);
        Assumptions.assumeTrue(Files.exists(p), "shared catalog " + p + " is absent; skipping");
        return p;
    }
}
