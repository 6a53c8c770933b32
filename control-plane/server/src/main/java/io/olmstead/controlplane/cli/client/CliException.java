package io.olmstead.controlplane.cli.client;

/**
 * A failure already phrased for the user as one line (the problem and the fix), with the exit code
 * it means.
 */
public final class CliException extends RuntimeException {
  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
