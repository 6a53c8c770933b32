package io.olmstead.controlplane.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cursor secret all replicas share: the first replica stores a random one, every replica reads
 * what is stored (insert-if-absent, so replicas starting together agree). Installed per Vert.x
 * instance for {@link Cursors}.
 */
public final class CursorKey {
  private static final Logger LOG = LoggerFactory.getLogger(CursorKey.class);
  static final String NAME = "cursor";
  private static final String INSERT =
      "INSERT INTO server_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING";
  private static final String SELECT = "SELECT secret FROM server_keys WHERE name = $1";

  private CursorKey() {}

  /**
   * Loads (creating if needed) the shared secret; without the table yet, a key of this process
   * only, with a warning.
   */
  public static Future<Void> install(Vertx vertx, Pool pool) {
    byte[] fresh = new byte[32];
    new SecureRandom().nextBytes(fresh);
    return pool.preparedQuery(INSERT)
        .execute(Tuple.of(NAME, Buffer.buffer(fresh)))
        .compose(v -> pool.preparedQuery(SELECT).execute(Tuple.of(NAME)))
        .map(rows -> rows.iterator().next().getBuffer("secret").getBytes())
        .recover(
            e -> {
              LOG.warn(
                  "cursor key not shared (schema not ready: {}); cursors from other replicas will be refused",
                  e.getMessage());
              return Future.succeededFuture(fresh);
            })
        .map(
            secret -> {
              Cursors.install(vertx, secret);
              return null;
            });
  }
}
