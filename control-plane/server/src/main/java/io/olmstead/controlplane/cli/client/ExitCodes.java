package io.olmstead.controlplane.cli.client;

/** The exit codes of the {@code olmstead} client, fixed and documented in docs/cli.md. */
public final class ExitCodes {
  /** Done. */
  public static final int OK = 0;

  /** The control plane refused the request (4xx not listed below, 5xx) or could not be reached. */
  public static final int ERROR = 1;

  /** The command line or an input file is wrong (unknown flag, malformed YAML, unknown kind). */
  public static final int USAGE = 2;

  /** The object named does not exist (or is not visible to the token). */
  public static final int NOT_FOUND = 3;

  /**
   * A conflict (409, 412), or the rollout ended other than Succeeded (Failed, Aborted, RolledBack).
   */
  public static final int CONFLICT_OR_FAILED = 4;

  /** Not logged in, or the token was refused (401) or lacks the role (403). */
  public static final int AUTH = 5;

  /**
   * {@code rollout status}: the rollout is Paused (it waits for a person to resume, promote or
   * abort it).
   */
  public static final int PAUSED = 6;

  /**
   * {@code rollout status --watch}: the {@code --timeout} passed before the rollout ended or
   * paused.
   */
  public static final int TIMEOUT = 7;

  private ExitCodes() {}
}
