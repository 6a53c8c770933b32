package io.olmstead.controlplane.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

/** Answers whether the database is reachable and carries every migration this build packages. */
public final class Readiness {
  private static final String APPLIED_VERSIONS =
      "SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL";

  private final Pool pool;
  private final String expectedVersion;

  public Readiness(Pool pool, String expectedVersion) {
    this.pool = pool;
    this.expectedVersion = expectedVersion;
  }

  /** A reason the control plane is not ready, or null when it is. */
  public Future<String> check() {
    return pool.query(APPLIED_VERSIONS).execute()
        .map(this::reasonFor)
        .otherwise(e -> e.getMessage() != null && e.getMessage().contains("flyway_schema_history")
            ? "migrations not applied (run the 'migrate' command)"
            : "database unreachable");
  }

  private String reasonFor(RowSet<Row> rows) {
    for (Row row : rows) {
      if (expectedVersion.equals(row.getString(0))) {
        return null;
      }
    }
    return "migration " + expectedVersion + " not applied (run the 'migrate' command)";
  }
}
