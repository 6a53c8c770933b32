package io.olmstead.controlplane.db;

import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches whether this replica can use the database: every {@link #PROBE_MILLIS} a bounded question
 * on a connection of its own (not the pool's: a pool kept busy by slow requests is not a database
 * that does not answer). After {@link DatabaseHealthSettings#unreachableSeconds()} without an
 * answer the replica counts the database unreachable (liveness fails, listeners let their agents
 * go) until it answers again. A server that answers read-only (a demoted primary, or a standby
 * reached through an address that has not moved yet) counts as no answer, and this replica ends its
 * own pooled sessions there (found by their application name), so the pool connects again and
 * reaches the primary wherever the address leads now, instead of failing every write with SQLSTATE
 * 25006.
 */
public final class DatabaseWatch {
  static final long PROBE_MILLIS = 1_000;
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseWatch.class);
  private static final String END_OWN_SESSIONS =
      "SELECT count(pg_terminate_backend(pid)) AS ended FROM "
          + "pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()";

  private final Vertx vertx;
  private final Pool pool;
  private final PgConnectOptions probeOptions;
  private final String applicationName;
  private final long unreachableNanos;
  private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
  private volatile long lastAnswer = System.nanoTime();
  private volatile boolean reachable = true;
  private boolean probing;
  private volatile PgConnection probeConnection;
  private long timer = -1;

  /**
   * {@code applicationName}: the name this replica's pooled sessions carry (see {@link
   * DatabaseHealthSettings}).
   */
  public DatabaseWatch(
      Vertx vertx,
      Pool pool,
      PgConnectOptions probeOptions,
      String applicationName,
      DatabaseHealthSettings settings) {
    this.vertx = vertx;
    this.pool = pool;
    this.probeOptions = probeOptions;
    this.applicationName = applicationName;
    this.unreachableNanos = TimeUnit.SECONDS.toNanos(settings.unreachableSeconds());
  }

  public void start() {
    lastAnswer = System.nanoTime();
    timer = vertx.setPeriodic(PROBE_MILLIS, id -> probe());
  }

  public void stop() {
    vertx.cancelTimer(timer);
    dropProbeConnection();
  }

  /**
   * Told {@code false} when the database becomes unreachable for this replica, {@code true} when it
   * answers again.
   */
  public void onChange(Consumer<Boolean> listener) {
    listeners.add(listener);
  }

  /** Null while the database answers; else why this replica cannot serve (for {@code /healthz}). */
  public String unhealthyReason() {
    if (reachable) {
      return null;
    }
    return "the database has not answered writable for "
        + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - lastAnswer)
        + " s";
  }

  private void probe() {
    if (probing) {
      return; // the last probe hangs: its timeout decides
    }
    probing = true;
    within(
            probeConnection()
                .compose(conn -> conn.query(DatabasePool.READ_ONLY).execute())
                .map(rows -> rows.iterator().next().getBoolean("read_only")))
        .compose(readOnly -> readOnly ? reconnect().map(false) : Future.succeededFuture(true))
        .onComplete(
            ar -> {
              probing = false;
              if (ar.succeeded() && ar.result()) {
                answered();
              } else {
                dropProbeConnection(); // hung, ended, or on a read-only server: the next probe
                // dials the address again
                unanswered();
              }
            });
  }

  private Future<PgConnection> probeConnection() {
    PgConnection open = probeConnection;
    if (open != null) {
      return Future.succeededFuture(open);
    }
    return PgConnection.connect(vertx, probeOptions)
        .onSuccess(
            conn -> {
              conn.exceptionHandler(e -> LOG.debug("database probe connection: {}", e.toString()));
              conn.closeHandler(
                  v -> {
                    if (probeConnection == conn) {
                      probeConnection = null;
                    }
                  });
              probeConnection = conn;
            });
  }

  private void dropProbeConnection() {
    PgConnection open = probeConnection;
    probeConnection = null;
    if (open != null) {
      open.close();
    }
  }

  /**
   * The pool reached a read-only server: end this replica's sessions there so the pool opens new
   * ones.
   */
  private Future<Void> reconnect() {
    return pool.withConnection(
            conn ->
                conn.preparedQuery(END_OWN_SESSIONS)
                    .execute(Tuple.of(applicationName))
                    .map(
                        rows -> {
                          Row row = rows.iterator().next();
                          LOG.warn(
                              "the database answered read-only (a demoted primary or a standby): ended {} pooled sessions there "
                                  + "so the pool connects again",
                              row.getLong("ended") + 1);
                          return conn;
                        })
                    // and this session too: closing it only hands it back to the pool
                    .compose(
                        c ->
                            c.query("SELECT pg_terminate_backend(pg_backend_pid())")
                                .execute()
                                .mapEmpty()
                                .recover(e -> Future.succeededFuture())))
        .mapEmpty();
  }

  private void answered() {
    lastAnswer = System.nanoTime();
    if (!reachable) {
      reachable = true;
      LOG.info("the database answers again: this replica serves agents again");
      listeners.forEach(l -> l.accept(true));
    }
  }

  private void unanswered() {
    if (reachable && System.nanoTime() - lastAnswer >= unreachableNanos) {
      reachable = false;
      LOG.warn(
          "the database has not answered for {} s: /healthz fails and this replica lets its agents go",
          TimeUnit.NANOSECONDS.toSeconds(unreachableNanos));
      listeners.forEach(l -> l.accept(false));
    }
  }

  private <T> Future<T> within(Future<T> future) {
    return LoopBound.within(
        vertx, future, Math.max(PROBE_MILLIS, 2_000), () -> new TimeoutException("no answer"));
  }
}
