package io.olmstead.controlplane.hypershift;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership for one replica-wide task, as the rollout engine takes it: {@code pg_try_advisory_lock} on a dedicated
 * connection, so the lock goes with the session when a replica dies and another replica's next attempt takes it.
 */
final class LeaderLock {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLock.class);

  private final Vertx vertx;
  private final PgConnectOptions connectOptions;
  private final long key;
  private final Consumer<Boolean> onChange;
  private PgConnection connection;
  private boolean trying;

  LeaderLock(Vertx vertx, PgConnectOptions connectOptions, long key, Consumer<Boolean> onChange) {
    this.vertx = vertx;
    this.connectOptions = connectOptions;
    this.key = key;
    this.onChange = onChange;
  }

  /** Tries to take the lock unless held or being tried; {@code onChange(true)} when taken. */
  void tryTake() {
    if (connection != null || trying) {
      return;
    }
    trying = true;
    PgConnection.connect(vertx, connectOptions).compose(conn -> {
      conn.exceptionHandler(e -> LOG.debug("hypershift leader lock connection: {}", e.toString()));
      return conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS locked").execute(Tuple.of(key))
          .map(rows -> rows.iterator().next().getBoolean("locked"))
          .compose(locked -> locked ? Future.succeededFuture(conn) : conn.close().map((PgConnection) null));
    }).onComplete(ar -> {
      trying = false;
      if (ar.failed()) {
        LOG.debug("hypershift leader lock not taken: {}", ar.cause().toString());
      } else if (ar.result() != null) {
        PgConnection conn = ar.result();
        connection = conn;
        // the session, and with it the lock, is gone: stop until the lock is taken again
        conn.closeHandler(v -> {
          if (connection == conn) {
            connection = null;
            onChange.accept(false);
          }
        });
        onChange.accept(true);
      }
    });
  }

  Future<Void> release() {
    PgConnection conn = connection;
    connection = null;
    return conn == null ? Future.succeededFuture() : conn.close();
  }
}
