package io.olmstead.controlplane.http;

/**
 * What a mode still does after the server listens before it may be called ready, besides the
 * database check (dev: loading the demo catalog). {@code /readyz} answers 503 with this reason
 * while it is held; {@code serve} never holds it, so production readiness is the database check
 * alone.
 */
public final class StartupGate {
  private volatile String reason;

  private StartupGate(String reason) {
    this.reason = reason;
  }

  /** A gate that is open from the start ({@code serve}). */
  public static StartupGate open() {
    return new StartupGate(null);
  }

  /** A gate held with {@code reason} until {@link #release()}. */
  public static StartupGate held(String reason) {
    return new StartupGate(reason);
  }

  /** Why the process is not ready yet, or null. */
  public String reason() {
    return reason;
  }

  public void release() {
    reason = null;
  }
}
