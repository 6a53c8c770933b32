package io.olmstead.olmcore.fbc;

/** Safety limits for parsing untrusted catalogs. */
public record ParseLimits(
    long maxBlobBytes, long maxTotalBytes, int maxYamlAliases, int maxNestingDepth) {

  public static final long MIB = 1024L * 1024L;

  public ParseLimits {
    if (maxBlobBytes <= 0 || maxTotalBytes <= 0 || maxYamlAliases < 0 || maxNestingDepth <= 0) {
      throw new IllegalArgumentException("parse limits must be positive");
    }
  }

  /** 16 MiB per blob, 256 MiB in total, 50 YAML aliases, nesting depth 100. */
  public static ParseLimits defaults() {
    return new ParseLimits(16 * MIB, 256 * MIB, 50, 100);
  }
}
