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
  /** A conflict (409, 412), or the rollout ended Failed, Aborted or RolledBack. */
  public static final int CONFLICT_OR_FAILED = 4;
  /** Not logged in, or the token was refused (401) or lacks the role (403). */
  public static final int AUTH = 5;

  private ExitCodes() {
  }
}
