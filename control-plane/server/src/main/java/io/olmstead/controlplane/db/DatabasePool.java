package io.olmstead.controlplane.db;

import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's database pool, bounded by {@link DatabaseHealthSettings}, with the {@link
 * DatabaseWatch} that says whether it can use the database. Each new pooled session is checked
 * before it is used: one that starts read-only (the address led to a demoted primary or a standby)
 * is ended at once, so the pool never keeps a session on which every write fails with SQLSTATE
 * 25006 and the next attempt dials the address again.
 */
public record DatabasePool(Pool pool, DatabaseWatch watch) {
  private static final Logger LOG = LoggerFactory.getLogger(DatabasePool.class);
  static final String READ_ONLY =
      "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' "
          + "AS read_only";
  private static final String END_SELF = "SELECT pg_terminate_backend(pg_backend_pid())";

  /**
   * {@code replica}: this replica's id; its pooled sessions carry the application name
   * olmstead-{replica}.
   */
  public static DatabasePool create(
      Vertx vertx, DatabaseSettings db, DatabaseHealthSettings health, int size, String replica) {
    String applicationName = applicationName(replica);
    AtomicBoolean warned = new AtomicBoolean();
    PgConnectOptions options = health.pooled(db.connectOptions(), applicationName);
    Pool pool =
        PgBuilder.pool()
            .with(new PoolOptions().setMaxSize(size).setName("olmstead"))
            .connectingTo(options)
            .withConnectHandler(conn -> admit(conn, warned))
            .using(vertx)
            .build();
    return new DatabasePool(pool, new DatabaseWatch(vertx, pool, options, applicationName, health));
  }

  /** At most 63 bytes, as PostgreSQL keeps it. */
  static String applicationName(String replica) {
    String name = "olmstead-" + replica;
    return name.length() > 63 ? name.substring(0, 63) : name;
  }

  private static void admit(SqlConnection conn, AtomicBoolean warned) {
    // a pooled connection the server ends (restart, shutdown) would otherwise print the error to
    // stderr; the pool
    // drops it and the failed query reports it where it ran
    conn.exceptionHandler(e -> LOG.debug("database connection: {}", e.toString()));
    conn.query(READ_ONLY)
        .execute()
        .onComplete(
            ar -> {
              if (ar.failed() || !ar.result().iterator().next().getBoolean("read_only")) {
                warned.set(false);
                conn.close();
                return;
              }
              if (warned.compareAndSet(false, true)) {
                LOG.warn(
                    "the database address leads to a read-only server (a demoted primary or a standby): its sessions are "
                        + "ended until it leads to the primary");
              }
              conn.query(END_SELF).execute().onComplete(ended -> conn.close());
            });
  }
}
