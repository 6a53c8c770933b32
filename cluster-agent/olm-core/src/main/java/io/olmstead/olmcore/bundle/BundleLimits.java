package io.olmstead.olmcore.bundle;

import io.olmstead.olmcore.fbc.ParseLimits;
import io.olmstead.olmcore.tar.TarLimits;

/**
 * Limits for unpacking an untrusted bundle image: the budget of its tar streams, and the parse
 * limits of each manifest.
 */
public record BundleLimits(TarLimits tar, ParseLimits parse) {

  public BundleLimits {
    if (tar == null || parse == null) {
      throw new IllegalArgumentException("bundle limits must be given");
    }
  }

  /** {@link TarLimits#bundleImage()} and the catalog parser's defaults. */
  public static BundleLimits defaults() {
    return new BundleLimits(TarLimits.bundleImage(), ParseLimits.defaults());
  }
}
