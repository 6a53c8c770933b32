package io.olmstead.apispec.protocol;

import java.util.Arrays;
import java.util.Optional;

/**
 * Why the control plane (or the agent) closed a connection: a WebSocket close code in the
 * application range and a stable reason text. Agents decide from the code whether to reconnect.
 */
public enum CloseReason {
  UNSUPPORTED_PROTOCOL(4001, "unsupported-protocol", false),
  MALFORMED_MESSAGE(4002, "malformed-message", true),
  UNKNOWN_TYPE(4003, "unknown-message-type", true),
  MESSAGE_TOO_BIG(4004, "message-too-big", true),
  RATE_LIMITED(4005, "rate-limited", true),
  WRONG_CLUSTER(4006, "wrong-cluster", false),
  CREDENTIAL_REVOKED(4007, "credential-revoked", false),
  HEARTBEAT_TIMEOUT(4008, "heartbeat-timeout", true),
  HELLO_REQUIRED(4009, "hello-required", true),
  REPLACED(4010, "replaced-by-newer-connection", false),
  UNEXPECTED_MESSAGE(4011, "unexpected-message", true),
  SHUTTING_DOWN(1001, "shutting-down", true),
  /** A status could not be stored: the agent reconnects and sends its full state again. */
  TRY_AGAIN_LATER(1013, "try-again-later", true);

  private final int code;
  private final String reason;
  private final boolean reconnect;

  CloseReason(int code, String reason, boolean reconnect) {
    this.code = code;
    this.reason = reason;
    this.reconnect = reconnect;
  }

  public int code() {
    return code;
  }

  /** The stable reason text sent in the close frame (a detail may follow after ": "). */
  public String reason() {
    return reason;
  }

  /** Whether an agent closed for this reason should dial again (with backoff). */
  public boolean reconnect() {
    return reconnect;
  }

  /**
   * The close frame's reason text, with a detail for humans; kept under the 123-byte limit of a
   * close frame.
   */
  public String describe(String detail) {
    String text = detail == null || detail.isBlank() ? reason : reason + ": " + detail;
    return text.length() > 120 ? text.substring(0, 120) : text;
  }

  public static Optional<CloseReason> ofCode(int code) {
    return Arrays.stream(values()).filter(r -> r.code == code).findFirst();
  }
}
