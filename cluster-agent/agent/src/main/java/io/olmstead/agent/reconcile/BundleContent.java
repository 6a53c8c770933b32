package io.olmstead.agent.reconcile;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.lifecycle.CsvPhase;
import io.olmstead.olmcore.lifecycle.CsvReason;
import io.olmstead.olmcore.lifecycle.CsvStatus;

/**
 * A bundle ready to install (objects embedded or fetched), or the status to report while it is not.
 */
public record BundleContent(Bundle bundle, CsvStatus waiting) {

  public static BundleContent ready(Bundle bundle) {
    return new BundleContent(bundle, null);
  }

  /** Not unpacked yet: the cluster waits in Pending and tries again. */
  public static BundleContent unpacking(String message) {
    return new BundleContent(
        null, new CsvStatus(CsvPhase.PENDING, CsvReason.BUNDLE_UNPACKING, message));
  }

  /** The control plane could not unpack the image: Failed, with its message. */
  public static BundleContent failed(String message) {
    return new BundleContent(
        null, new CsvStatus(CsvPhase.FAILED, CsvReason.BUNDLE_UNPACK_FAILED, message));
  }

  public boolean isReady() {
    return waiting == null;
  }
}
