package io.olmstead.controlplane.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.config.DatabaseHealthSettings;
import io.olmstead.controlplane.config.DatabaseSettings;
import io.olmstead.controlplane.testsupport.TestDatabase;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The presence connection has bounds of its own, shorter than the pool's: a presence statement that
 * waits (on a lock, on a slow server) ends on the server after a third of the disconnect window, so
 * the lease is tried again on time, while the pool keeps its longer statement timeout.
 */
class PresenceBoundsIT {
  @Test
  void thePresenceConnectionEndsItsStatementsSoonerThanThePool() throws Exception {
    DatabaseSettings db = TestDatabase.create(PresenceBoundsIT.class);
    Vertx vertx = Vertx.vertx();
    try {
      DatabasePool database =
          DatabasePool.create(
              vertx, db, new DatabaseHealthSettings(30, 45, 5, 30), 2, "bounds-it", 15);

      assertThat(setting(database.presence())).isEqualTo("15s");
      assertThat(setting(database.pool())).isEqualTo("30s");
      database.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } finally {
      vertx.close();
    }
  }

  private static String setting(Pool pool) throws Exception {
    Future<String> shown =
        pool.query("SHOW statement_timeout")
            .execute()
            .map(rows -> rows.iterator().next().getString(0));
    return shown.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
