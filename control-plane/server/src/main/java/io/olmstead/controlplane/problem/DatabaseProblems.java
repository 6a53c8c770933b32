package io.olmstead.controlplane.problem;

import io.vertx.pgclient.PgException;

/** The client errors a PostgreSQL failure stands for (a unique or foreign key violation, a malformed value). */
public final class DatabaseProblems {
  private DatabaseProblems() {
  }

  /** The client error {@code e} stands for; null when it is a server error. */
  public static ApiException fromDatabase(PgException e) {
    String state = e.getSqlState();
    if (state == null) {
      return null;
    }
    return switch (state) {
      case "23505" -> ApiException.conflict("an object with this name or key already exists");
      case "23503" -> ApiException.conflict("the object is referenced by or refers to another object");
      case "22001", "22P02", "23514", "22003", "22023" -> ApiException.badRequest("a value is out of range or malformed");
      default -> null;
    };
  }
}
