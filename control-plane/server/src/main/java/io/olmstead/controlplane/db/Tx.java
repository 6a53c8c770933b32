package io.olmstead.controlplane.db;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.problem.DatabaseProblems;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import java.util.function.Function;

/**
 * The transaction helper every store shares: reads on a pooled connection, changes in one
 * transaction together with their audit entry. A change refused with 403, 404, 409 or 412 rolls
 * back and is audited on its own as denied/failure.
 */
public final class Tx {
  private final Pool pool;
  private final Audit audit;

  public Tx(Pool pool) {
    this.pool = pool;
    this.audit = new Audit(pool);
  }

  public Pool pool() {
    return pool;
  }

  public Audit audit() {
    return audit;
  }

  /** Runs reads on one connection. */
  public <T> Future<T> read(Function<SqlConnection, Future<T>> work) {
    return pool.withConnection(work);
  }

  /**
   * Runs {@code work} in a transaction without an audit entry (for system bookkeeping such as
   * heartbeats).
   */
  public <T> Future<T> inTransaction(Function<SqlConnection, Future<T>> work) {
    return pool.withTransaction(work);
  }

  /**
   * Runs {@code work} and writes {@code entry} (outcome success, detail from {@code detail}) in one
   * transaction: both commit or neither does.
   */
  public <T> Future<T> audited(
      AuditEntry entry, Function<SqlConnection, Future<T>> work, Function<T, JsonObject> detail) {
    return pool.<T>withTransaction(
            conn ->
                work.apply(conn)
                    .compose(
                        result ->
                            Audit.record(
                                    conn,
                                    entry.withOutcome(
                                        AuditEntry.SUCCESS,
                                        detail == null ? entry.detail() : detail.apply(result)))
                                .map(result)))
        .recover(
            e -> {
              Throwable mapped =
                  e instanceof PgException pg && DatabaseProblems.fromDatabase(pg) != null
                      ? DatabaseProblems.fromDatabase(pg)
                      : e;
              return auditRefusal(entry, mapped).compose(v -> Future.failedFuture(mapped));
            });
  }

  private Future<Void> auditRefusal(AuditEntry entry, Throwable e) {
    if (!(e instanceof ApiException api)
        || !(api.status() == 403
            || api.status() == 404
            || api.status() == 409
            || api.status() == 412)) {
      return Future.succeededFuture();
    }
    String outcome =
        api.status() == 403 || api.teamDenied() ? AuditEntry.DENIED : AuditEntry.FAILURE;
    return audit.recordDenied(
        entry.withOutcome(
            outcome, entry.detail().copy().put("status", api.status()).put("code", api.code())));
  }
}
