package io.olmstead.olmcore.semver;

/** A version or version range that is not valid strict semver 2.0 / blang v4 range syntax. */
public final class VersionException extends Exception {
  private static final long serialVersionUID = 1L;

  public VersionException(String message) {
    super(message);
  }
}
