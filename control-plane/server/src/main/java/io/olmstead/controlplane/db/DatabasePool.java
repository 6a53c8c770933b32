package io.olmstead.controlplane.db;

import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.vertx.core.Future;
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
 * DatabaseWatch} that says whether it can use the database, and a pool of one connection of its own
 * for the gateway's presence tick ({@code presence}): the lease that keeps this replica's clusters
 * connected is renewed on it, so a queue of attaches and publishes in the main pool (a whole fleet
 * redialing at once) cannot hold the renewal past the disconnect window, after which every other
 * replica would mark this replica's healthy clusters disconnected. Each new pooled session is
 * checked before it is used: one that starts read-only (the address led to a demoted primary or a
 * standby) is ended at once, so the pool never keeps a session on which every write fails with
 * SQLSTATE 25006 and the next attempt dials the address again.
 */
public record DatabasePool(Pool pool, Pool presence, DatabaseWatch watch) {
  private static final Logger LOG = LoggerFactory.getLogger(DatabasePool.class);
  static final String READ_ONLY =
      "SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' "
          + "AS read_only";
  private static final String END_SELF = "SELECT pg_terminate_backend(pg_backend_pid())";

  /**
   * {@code replica}: this replica's id; its pooled sessions carry the application name
   * olmstead-{replica}. The presence connection's statements end on the server after {@code
   * presenceSeconds} and it is closed after reading nothing for a second longer, so a hung presence
   * connection is replaced well within the disconnect window (the replica passes a third of it).
   */
  public static DatabasePool create(
      Vertx vertx,
      DatabaseSettings db,
      DatabaseHealthSettings health,
      int size,
      String replica,
      int presenceSeconds) {
    String applicationName = applicationName(replica);
    AtomicBoolean warned = new AtomicBoolean();
    PgConnectOptions options = health.pooled(db.connectOptions(), applicationName);
    Pool pool = pool(vertx, options, size, "olmstead", warned);
    DatabaseHealthSettings presenceBounds =
        new DatabaseHealthSettings(
            presenceSeconds,
            presenceSeconds + 1,
            health.connectSeconds(),
            health.unreachableSeconds());
    Pool presence =
        pool(
            vertx,
            presenceBounds.pooled(db.connectOptions(), applicationName),
            1,
            "olmstead-presence",
            warned);
    return new DatabasePool(
        pool, presence, new DatabaseWatch(vertx, pool, options, applicationName, health));
  }

  private static Pool pool(
      Vertx vertx, PgConnectOptions options, int size, String name, AtomicBoolean warned) {
    return PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(size).setName(name))
        .connectingTo(options)
        .withConnectHandler(conn -> admit(conn, warned))
        .using(vertx)
        .build();
  }

  /** Closes both pools. */
  public Future<Void> close() {
    return Future.join(pool.close(), presence.close()).mapEmpty();
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
