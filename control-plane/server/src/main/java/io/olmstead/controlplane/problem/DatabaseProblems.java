package io.olmstead.controlplane.problem;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.util.Optional;
import java.util.Set;

/**
 * What a PostgreSQL failure stands for: a client error (a unique or foreign key violation, a
 * malformed value), or the database being unavailable for now (unreachable, shutting down,
 * read-only after a failover, a session it ended).
 */
public final class DatabaseProblems {
  private DatabaseProblems() {}

  /** The unique index (V5) that allows one Progressing or Paused rollout per subscription. */
  private static final String ACTIVE_ROLLOUT_CONSTRAINT = "rollouts_one_active";

  /**
   * SQLSTATEs that say the database cannot serve now, not that the request is wrong or the server
   * broken.
   */
  private static final Set<String> UNAVAILABLE_STATES =
      Set.of(
          "25006", // read_only_sql_transaction: a demoted primary or a standby
          "57P01", "57P02", "57P03", // admin or crash shutdown, cannot connect now
          "53300"); // too_many_connections

  /**
   * What the SQL client's pool fails with when no session frees up in time (a plain
   * VertxException).
   */
  static final String POOL_TIMEOUT = "Timeout waiting for connection";

  /**
   * Why {@code failure} (or one of its causes) means the database is unavailable for now, in a few
   * words for a log line; empty when it means something else.
   */
  public static Optional<String> unavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof PgException pg
          && pg.getSqlState() != null
          && (UNAVAILABLE_STATES.contains(pg.getSqlState()) || pg.getSqlState().startsWith("08"))) {
        return Optional.of("SQLSTATE " + pg.getSqlState() + ": " + pg.getErrorMessage());
      }
      if (t instanceof ClosedConnectionException) {
        return Optional.of("its session was closed");
      }
      if (t instanceof ConnectException) {
        return Optional.of("cannot connect: " + t.getMessage());
      }
      if (t instanceof VertxException && POOL_TIMEOUT.equals(t.getMessage())) {
        return Optional.of("no pooled session free in time");
      }
    }
    return Optional.empty();
  }

  /** The answer to a request the database could not serve now: 503, retried after a moment. */
  public static ApiException unavailableProblem() {
    return new ApiException(
            503,
            "database-unavailable",
            "Service Unavailable",
            "the database is unavailable or "
                + "read-only (a restart or failover may be under way); retry shortly",
            null)
        .withHeader("Retry-After", "2");
  }

  /** The client error {@code e} stands for; null when it is a server error. */
  public static ApiException fromDatabase(PgException e) {
    String state = e.getSqlState();
    if (state == null) {
      return null;
    }
    return switch (state) {
      case "23505" ->
          ACTIVE_ROLLOUT_CONSTRAINT.equals(e.getConstraint())
              ? ApiException.conflict(
                  "a rollout of this subscription is already Progressing or Paused: abort it or"
                      + " wait for it to end")
              : ApiException.conflict("an object with this name or key already exists");
      case "23503" ->
          ApiException.conflict("the object is referenced by or refers to another object");
      case "22001", "22P02", "23514", "22003", "22023" ->
          ApiException.badRequest("a value is out of range or malformed");
      default -> null;
    };
  }
}
