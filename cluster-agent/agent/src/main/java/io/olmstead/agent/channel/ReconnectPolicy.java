package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.CloseReason;

/**
 * When the agent dials again after a close. The backoff starts over at each welcome, except after
 * closes that said this agent's own messages were bad (4002, 4003, 4004, 4011): sending the same
 * again would be refused again, so the delay keeps growing to the maximum across welcomes until a
 * connection has been accepted for a minute. Closes that need a change elsewhere (4001, 4006, 4010)
 * wait the maximum delay. A revoked credential (4007) is usually followed within a second by a new
 * one (a hosted pool's handover, or a re-enrollment with the token): the agent dials again after a
 * short jittered delay, {@value #QUICK_AFTER_REVOCATION} times in a row at most before a welcome,
 * then waits the maximum like the other closes that need a change elsewhere.
 */
final class ReconnectPolicy {
  static final long REFUSALS_FORGOTTEN_NANOS = 60_000_000_000L;
  static final int QUICK_AFTER_REVOCATION = 3;

  private final Backoff backoff;
  private int refusals;
  private int revocations;
  private long welcomedNanos;

  ReconnectPolicy(Backoff backoff) {
    this.backoff = backoff;
  }

  /** Whether a close with this code means the control plane refused a message of this agent. */
  static boolean refusedOurMessage(Integer code) {
    return code != null
        && (code == CloseReason.MALFORMED_MESSAGE.code()
            || code == CloseReason.UNKNOWN_TYPE.code()
            || code == CloseReason.MESSAGE_TOO_BIG.code()
            || code == CloseReason.UNEXPECTED_MESSAGE.code());
  }

  void welcomed(long nowNanos) {
    welcomedNanos = nowNanos;
    revocations = 0;
    if (refusals == 0) {
      backoff.reset();
    }
  }

  /**
   * Called periodically while connected and welcomed: after a minute, earlier refusals are
   * forgotten.
   */
  void stillConnected(long nowNanos) {
    if (refusals > 0 && nowNanos - welcomedNanos > REFUSALS_FORGOTTEN_NANOS) {
      refusals = 0;
    }
  }

  /**
   * The delay before dialing again after a close with this code (null when there was no close
   * frame).
   */
  long afterClose(Integer code) {
    if (refusedOurMessage(code)) {
      refusals++;
    }
    if (code != null
        && code == CloseReason.CREDENTIAL_REVOKED.code()
        && revocations++ < QUICK_AFTER_REVOCATION) {
      return backoff.shortMillis();
    }
    boolean hopeless =
        code != null && CloseReason.ofCode(code).map(r -> !r.reconnect()).orElse(false);
    return hopeless ? backoff.maxMillis() : backoff.nextMillis();
  }

  /**
   * The delay before a dial expected to succeed now (a new credential arrived while waiting to dial
   * again).
   */
  long soon() {
    return backoff.shortMillis();
  }

  /** Refusals in a row (for the log). */
  int refusals() {
    return refusals;
  }
}
