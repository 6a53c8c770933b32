package io.olmstead.controlplane.db;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership for one replica-wide task (the rollout engine, the HyperShift watcher): {@code
 * pg_try_advisory_lock} on a dedicated connection, so the lock goes with the session when a replica
 * dies and another replica's next attempt takes it. {@code onChange} hears {@code true} when the
 * lock is taken and {@code false} when this replica steps down.
 *
 * <p>A replica is not always told that its session ended (a failover, a half-open path), so
 * leadership is fenced: taking the lock bumps the task's epoch in {@code leader_epochs}, each
 * leader-only transaction starts with {@link #fence}, which finds no row once another replica has
 * bumped it, and each {@link #ensure()} asks the lock session a cheap question with a short
 * timeout. Either failing makes this replica step down.
 */
public final class LeaderLock {
  /**
   * How long the lock session has to answer the check on each tick before this replica steps down.
   */
  public static final long CHECK_MILLIS = 2_000;

  private static final Logger LOG = LoggerFactory.getLogger(LeaderLock.class);
  private static final String TRY = "SELECT pg_try_advisory_lock($1) AS locked";
  private static final String BUMP =
      "INSERT INTO leader_epochs (lock_key, epoch) VALUES ($1, 1) ON CONFLICT (lock_key) "
          + "DO UPDATE SET epoch = leader_epochs.epoch + 1 RETURNING epoch";
  // FOR SHARE: a new leader's bump waits for this transaction, and this one sees the bump if it
  // came first
  private static final String FENCE =
      "SELECT 1 FROM leader_epochs WHERE lock_key = $1 AND epoch = $2 FOR SHARE";

  /** A leader-only write refused: another replica took the lock since this one did. */
  public static final class Deposed extends RuntimeException {
    Deposed(String task) {
      super(task + ": another replica holds the lock now");
    }
  }

  private final Vertx vertx;
  private final PgConnectOptions connectOptions;
  private final long key;
  private final String task;
  private final Consumer<Boolean> onChange;
  private final long checkMillis;
  private PgConnection connection;
  // a standby keeps the session it tries with, rather than open one on every tick
  private PgConnection standby;
  private long epoch;
  private boolean trying;

  public LeaderLock(
      Vertx vertx,
      PgConnectOptions connectOptions,
      long key,
      String task,
      Consumer<Boolean> onChange) {
    this(vertx, connectOptions, key, task, onChange, CHECK_MILLIS);
  }

  public LeaderLock(
      Vertx vertx,
      PgConnectOptions connectOptions,
      long key,
      String task,
      Consumer<Boolean> onChange,
      long checkMillis) {
    this.vertx = vertx;
    this.connectOptions = connectOptions;
    this.key = key;
    this.task = task;
    this.onChange = onChange;
    this.checkMillis = checkMillis;
  }

  /**
   * Whether this replica holds the lock: checks that a held lock's session still answers (stepping
   * down when it does not), or tries to take the lock when it is not held (and no attempt is under
   * way).
   */
  public Future<Boolean> ensure() {
    if (trying) {
      return Future.succeededFuture(connection != null);
    }
    trying = true;
    Future<Boolean> held = connection != null ? check(connection) : take();
    return held.onComplete(ar -> trying = false);
  }

  /** The epoch this replica took the lock with (0 when it does not hold it). */
  public long epoch() {
    return connection == null ? 0 : epoch;
  }

  /**
   * The first statement of a leader-only transaction: fails with {@link Deposed} (and this replica
   * steps down) when this replica no longer holds the current epoch, so the transaction changes
   * nothing.
   */
  public Future<Void> fence(SqlConnection tx) {
    PgConnection held = connection;
    if (held == null) {
      return Future.failedFuture(new Deposed(task));
    }
    long mine = epoch;
    return tx.preparedQuery(FENCE)
        .execute(Tuple.of(key, mine))
        .compose(
            rows -> {
              if (rows.size() > 0) {
                return Future.succeededFuture();
              }
              stepDown(held, "another replica took the lock (epoch " + mine + " is over)");
              return Future.failedFuture(new Deposed(task));
            });
  }

  /** {@link #ensure()} for a timer: a failed attempt is only logged, the next one tries again. */
  public void tryTake() {
    ensure().onFailure(e -> LOG.debug("{} lock not taken: {}", task, e.toString()));
  }

  /** Gives the lock up (closes its session); no {@code onChange} follows. */
  public Future<Void> release() {
    PgConnection conn = connection;
    connection = null;
    PgConnection kept = standby;
    standby = null;
    Future<Void> closed = kept == null ? Future.succeededFuture() : kept.close();
    return conn == null ? closed : closed.compose(v -> conn.close());
  }

  private Future<Boolean> check(PgConnection conn) {
    return within(conn.query("SELECT 1").execute())
        .map(true)
        .recover(
            e -> {
              stepDown(conn, "its lock session does not answer (" + e.getMessage() + ")");
              return Future.succeededFuture(false);
            });
  }

  private Future<Boolean> take() {
    PgConnection kept = standby;
    standby = null;
    Future<PgConnection> session = kept != null ? Future.succeededFuture(kept) : connect();
    return session.compose(
        conn ->
            within(conn.preparedQuery(TRY).execute(Tuple.of(key)))
                .map(rows -> rows.iterator().next().getBoolean("locked"))
                .compose(
                    locked ->
                        locked
                            ? within(conn.preparedQuery(BUMP).execute(Tuple.of(key)))
                                .map(rows -> rows.iterator().next().getLong("epoch"))
                            : Future.succeededFuture(0L))
                .onFailure(e -> conn.close())
                .map(
                    taken -> {
                      if (taken == 0) {
                        standby = conn;
                        return false;
                      }
                      lead(conn, taken);
                      return true;
                    }));
  }

  /**
   * A new lock session within the check's bound. One that connects after the bound (a loaded
   * database or machine) is closed: left open, each attempt every 500 ms would keep one more idle
   * session until max_connections is reached and the replicas' pools cannot open connections any
   * more (issue 27).
   */
  private Future<PgConnection> connect() {
    Future<PgConnection> connecting =
        PgConnection.connect(vertx, connectOptions)
            .onSuccess(
                conn ->
                    // without a handler the client prints the error to stderr (e.g. when the
                    // database shuts down first)
                    conn.exceptionHandler(
                        e -> LOG.debug("{} lock connection: {}", task, e.toString())));
    return within(connecting).onFailure(e -> connecting.onSuccess(PgConnection::close));
  }

  private void lead(PgConnection conn, long taken) {
    connection = conn;
    epoch = taken;
    // the session, and with it the lock, is gone: stop until the lock is taken again
    conn.closeHandler(
        v -> {
          if (connection == conn) {
            connection = null;
            onChange.accept(false);
          }
        });
    LOG.info("{}: this replica leads (epoch {})", task, taken);
    onChange.accept(true);
  }

  private void stepDown(PgConnection conn, String why) {
    if (connection != conn) {
      return;
    }
    connection = null;
    LOG.warn("{}: this replica steps down: {}", task, why);
    conn.close();
    onChange.accept(false);
  }

  /**
   * {@code future}, failed with a timeout when it has not completed within the check's bound, this
   * replica's own lateness not counted ({@link LoopBound}).
   */
  private <T> Future<T> within(Future<T> future) {
    return LoopBound.within(
        vertx,
        future,
        checkMillis,
        () -> new TimeoutException("no answer within " + checkMillis + " ms"));
  }
}
