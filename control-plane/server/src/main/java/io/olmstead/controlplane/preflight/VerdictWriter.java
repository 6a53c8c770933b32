package io.olmstead.controlplane.preflight;

import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.controlplane.db.DatabaseOutage;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.time.Duration;

/**
 * Stores agents' preflight verdicts, retrying a write the database refused (an outage, a failover)
 * with a doubling backoff until it is stored or the request is no longer open: an agent answers
 * each request once per connection, so a verdict dropped here would leave its cluster held as
 * PreflightUnavailable and the rollout passing it by.
 */
public final class VerdictWriter {
  static final long FIRST_RETRY_MILLIS = 500;
  static final long MAX_RETRY_MILLIS = 8_000;

  private final Vertx vertx;
  private final Pool pool;
  private final PreflightStore store;
  private final long giveUpMillis;
  private final DatabaseOutage outage = new DatabaseOutage("preflight verdicts");

  public VerdictWriter(Vertx vertx, Pool pool, PreflightStore store) {
    this(vertx, pool, store, PreflightStore.OPEN_FOR);
  }

  VerdictWriter(Vertx vertx, Pool pool, PreflightStore store, Duration giveUpAfter) {
    this.vertx = vertx;
    this.pool = pool;
    this.store = store;
    this.giveUpMillis = giveUpAfter.toMillis();
  }

  /**
   * Stores {@code answer} of {@code cluster}'s agent: true once stored, false when it named no open
   * request of that cluster; fails only when the database refused it until the request was no
   * longer open.
   */
  public Future<Boolean> write(String cluster, Preflight answer) {
    Promise<Boolean> done = Promise.promise();
    attempt(cluster, answer, System.nanoTime(), FIRST_RETRY_MILLIS, done);
    return done.future();
  }

  private void attempt(
      String cluster, Preflight answer, long started, long backoff, Promise<Boolean> done) {
    store
        .answer(pool, cluster, answer)
        .onComplete(
            ar -> {
              if (ar.succeeded()) {
                outage.recovered();
                done.complete(ar.result());
                return;
              }
              outage.failed(ar.cause());
              long elapsed = (System.nanoTime() - started) / 1_000_000;
              if (elapsed + backoff > giveUpMillis) {
                done.fail(ar.cause());
                return;
              }
              vertx.setTimer(
                  backoff,
                  id ->
                      attempt(
                          cluster, answer, started, Math.min(MAX_RETRY_MILLIS, backoff * 2), done));
            });
  }
}
