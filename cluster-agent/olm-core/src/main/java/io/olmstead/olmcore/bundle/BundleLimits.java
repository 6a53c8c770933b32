package io.olmstead.olmcore.bundle;

import io.olmstead.olmcore.fbc.ParseLimits;

/**
 * Limits for unpacking an untrusted bundle image: tar entries per layer, bytes of one kept file, bytes read in all
 * (every entry counts, kept or not, so a gzip bomb stops early), and the parse limits for each manifest.
 */
public record BundleLimits(int maxEntries, long maxFileBytes, long maxTotalBytes, ParseLimits parse) {

    public BundleLimits {
        if (maxEntries <= 0 || maxFileBytes <= 0 || maxTotalBytes <= 0 || parse == null) {
            throw new IllegalArgumentException("bundle limits must be positive");
        }
    }

    /** 10,000 entries, 16 MiB per file, 256 MiB in total, the catalog parser's defaults. */
    public static BundleLimits defaults() {
        return new BundleLimits(10_000, 16 * ParseLimits.MIB, 256 * ParseLimits.MIB, ParseLimits.defaults());
    }
}
