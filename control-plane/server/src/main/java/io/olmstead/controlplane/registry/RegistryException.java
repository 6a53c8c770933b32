package io.olmstead.controlplane.registry;

/** A registry operation failed; the message names the registry and image, never a credential. */
public final class RegistryException extends Exception {

  /** What went wrong, so callers can decide whether to retry. */
  public enum Kind {
    NOT_FOUND,
    DENIED,
    UNREACHABLE,
    INVALID,
    TOO_LARGE,
    DIGEST_MISMATCH;

    /**
     * Only a registry that did not answer (or answered 5xx) may answer later; the rest will not
     * change by retrying.
     */
    public boolean retryable() {
      return this == UNREACHABLE;
    }
  }

  private final Kind kind;

  public RegistryException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public RegistryException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
