package io.olmstead.controlplane.store;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Tuple;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership for one replica-wide task (the rollout engine, the HyperShift watcher): {@code pg_try_advisory_lock} on a
 * dedicated connection, so the lock goes with the session when a replica dies and another replica's next attempt
 * takes it. {@code onChange} hears {@code true} when the lock is taken and {@code false} when its session is lost.
 */
public final class LeaderLock {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderLock.class);

  private final Vertx vertx;
  private final PgConnectOptions connectOptions;
  private final long key;
  private final String task;
  private final Consumer<Boolean> onChange;
  private PgConnection connection;
  private boolean trying;

  public LeaderLock(Vertx vertx, PgConnectOptions connectOptions, long key, String task, Consumer<Boolean> onChange) {
    this.vertx = vertx;
    this.connectOptions = connectOptions;
    this.key = key;
    this.task = task;
    this.onChange = onChange;
  }

  /** Whether this replica holds the lock, trying to take it first when it does not (and no attempt is under way). */
  public Future<Boolean> ensure() {
    if (connection != null) {
      return Future.succeededFuture(true);
    }
    if (trying) {
      return Future.succeededFuture(false);
    }
    trying = true;
    return PgConnection.connect(vertx, connectOptions).compose(conn -> {
      // without a handler the client prints the error to stderr (e.g. when the database shuts down first)
      conn.exceptionHandler(e -> LOG.debug("{} lock connection: {}", task, e.toString()));
      return conn.preparedQuery("SELECT pg_try_advisory_lock($1) AS locked").execute(Tuple.of(key))
          .map(rows -> rows.iterator().next().getBoolean("locked"))
          .compose(locked -> locked ? Future.succeededFuture(conn) : conn.close().map((PgConnection) null));
    }).map(conn -> {
      if (conn == null) {
        return false;
      }
      connection = conn;
      // the session, and with it the lock, is gone: stop until the lock is taken again
      conn.closeHandler(v -> {
        if (connection == conn) {
          connection = null;
          onChange.accept(false);
        }
      });
      onChange.accept(true);
      return true;
    }).onComplete(ar -> trying = false);
  }

  /** {@link #ensure()} for a timer: a failed attempt is only logged, the next one tries again. */
  public void tryTake() {
    ensure().onFailure(e -> LOG.debug("{} lock not taken: {}", task, e.toString()));
  }

  /** Gives the lock up (closes its session); no {@code onChange} follows. */
  public Future<Void> release() {
    PgConnection conn = connection;
    connection = null;
    return conn == null ? Future.succeededFuture() : conn.close();
  }
}
