package io.olmstead.olmcore.bundle;

/**
 * A bundle image cannot be unpacked; the message names the entry or file and what is wrong with it.
 */
public final class BundleUnpackException extends Exception {

  public BundleUnpackException(String message) {
    super(message);
  }

  public BundleUnpackException(String message, Throwable cause) {
    super(message, cause);
  }
}
