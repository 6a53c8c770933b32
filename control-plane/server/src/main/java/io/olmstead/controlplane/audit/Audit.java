package io.olmstead.controlplane.audit;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes audit_log rows. A successful change writes its row on the change's own connection (same
 * transaction, see {@code db.Tx}); refused attempts are written on their own, best effort.
 */
public final class Audit {
  private static final Logger LOG = LoggerFactory.getLogger(Audit.class);
  private static final String INSERT =
      """
      INSERT INTO audit_log (actor, action, resource, outcome, detail, request_id) VALUES ($1, $2, $3, $4, $5, $6)
      """;

  private final Pool pool;

  public Audit(Pool pool) {
    this.pool = pool;
  }

  /**
   * Writes the entry with {@code client}: pass the transaction's connection so it commits or rolls
   * back with the change.
   */
  public static Future<Void> record(SqlClient client, AuditEntry entry) {
    return client.preparedQuery(INSERT).execute(tuple(entry)).mapEmpty();
  }

  /**
   * Writes the entries in one round trip with {@code client} (the transaction's connection, as for
   * one entry).
   */
  public static Future<Void> recordAll(SqlClient client, List<AuditEntry> entries) {
    if (entries.isEmpty()) {
      return Future.succeededFuture();
    }
    return client
        .preparedQuery(INSERT)
        .executeBatch(entries.stream().map(Audit::tuple).toList())
        .mapEmpty();
  }

  private static Tuple tuple(AuditEntry entry) {
    return Tuple.of(
        entry.actor(),
        entry.action(),
        entry.resource(),
        entry.outcome(),
        entry.detail(),
        entry.requestId());
  }

  /**
   * Records a refused or failed attempt outside any transaction; a failure to record is logged, not
   * propagated.
   */
  public Future<Void> recordDenied(AuditEntry entry) {
    return record(pool, entry)
        .recover(
            e -> {
              LOG.warn(
                  "request {}: could not audit {} {} ({}): {}",
                  entry.requestId(),
                  entry.outcome(),
                  entry.action(),
                  entry.resource(),
                  e.toString());
              return Future.succeededFuture();
            });
  }
}
