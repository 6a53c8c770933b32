package io.olmstead.controlplane.db;

/** The control plane cannot start; the message is one line for the operator, without internals. */
public final class StartupException extends RuntimeException {
  public StartupException(String message) {
    super(message);
  }

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
