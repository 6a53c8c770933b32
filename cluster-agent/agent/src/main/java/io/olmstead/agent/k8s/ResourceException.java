package io.olmstead.agent.k8s;

/**
 * The API server refused or failed an operation; {@link #code()} is the HTTP status (0 when none
 * was received).
 */
public final class ResourceException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int code;

  public ResourceException(String message, int code, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  public int code() {
    return code;
  }

  /**
   * True when the server rejected the object itself (4xx other than conflict), as opposed to being
   * unreachable.
   */
  public boolean rejected() {
    return code >= 400 && code < 500 && code != 409 && code != 429;
  }
}
