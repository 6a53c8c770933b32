package io.olmstead.controlplane.db;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import java.util.concurrent.TimeUnit;

/**
 * Answers whether the database is reachable and carries every migration this build packages. The
 * answer is cached and refreshed in the background, one check at a time and at most one every
 * {@link #FRESH_MILLIS}, each bounded by a timeout: probes answer at once even while the pool is
 * busy (a fleet reconnecting) and add no load to it.
 */
public final class DatabaseReadiness {
  private static final String APPLIED_VERSIONS =
      "SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL";

  /** A result younger than this is served without checking. */
  static final long FRESH_MILLIS = 2000;

  /** A check without an answer within this time counts as not ready. */
  public static final long TIMEOUT_MILLIS = 1000;

  /**
   * A result older than this (no check finished since) is not served: the caller waits for the
   * check.
   */
  static final long STALE_MILLIS = 10_000;

  private final Vertx vertx;
  private final Pool pool;
  private final String expectedVersion;
  private volatile String reason;
  private volatile long checkedAt;
  private volatile boolean checked;
  private Future<String> inFlight;

  public DatabaseReadiness(Vertx vertx, Pool pool, String expectedVersion) {
    this.vertx = vertx;
    this.pool = pool;
    this.expectedVersion = expectedVersion;
  }

  /** A reason the control plane is not ready, or null when it is. */
  public Future<String> check() {
    long age = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - checkedAt);
    if (checked && age < FRESH_MILLIS) {
      return Future.succeededFuture(reason);
    }
    Future<String> refresh = refresh();
    return checked && age < STALE_MILLIS ? Future.succeededFuture(reason) : refresh;
  }

  private synchronized Future<String> refresh() {
    if (inFlight != null) {
      return inFlight;
    }
    Promise<String> answer = Promise.promise();
    long timer =
        vertx.setTimer(
            TIMEOUT_MILLIS,
            id -> answer.tryComplete("database did not answer within " + TIMEOUT_MILLIS + " ms"));
    pool.query(APPLIED_VERSIONS)
        .execute()
        .map(this::reasonFor)
        .otherwise(
            e ->
                e.getMessage() != null && e.getMessage().contains("flyway_schema_history")
                    ? "migrations not applied (run the 'migrate' command)"
                    : "database unreachable")
        .onComplete(
            ar -> {
              vertx.cancelTimer(timer);
              answer.tryComplete(ar.result());
            });
    Future<String> future = answer.future().onComplete(ar -> done(ar.result()));
    inFlight = future;
    return future;
  }

  private synchronized void done(String result) {
    reason = result;
    checkedAt = System.nanoTime();
    checked = true;
    inFlight = null;
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
