package io.olmstead.apispec.protocol;

/** A frame that is not a valid protocol message, with the close reason it deserves. */
public final class ProtocolException extends Exception {
  private final CloseReason reason;

  public ProtocolException(CloseReason reason, String detail) {
    super(detail);
    this.reason = reason;
  }

  public CloseReason reason() {
    return reason;
  }
}
