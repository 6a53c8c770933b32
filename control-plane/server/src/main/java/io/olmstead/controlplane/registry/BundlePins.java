package io.olmstead.controlplane.registry;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins the bundle images a catalog revision names by tag: each distinct tag of a current revision's
 * image-only bundle is resolved once and the digest recorded on the revision's rows ({@code
 * catalog_bundles.image_digest}), where it stays when the tag later moves (a new revision resolves
 * again). The pinned digest is then unpacked like a bundle named by digest. A tag that does not
 * resolve keeps the registry's answer in {@code pin_error} and is tried again after {@code RETRY}.
 * Subscribed packages are pinned first. Resolves run on a registry pool of the sweep's own (closed
 * with it), so tags on slow registries never take the workers bundle unpacks wait for.
 */
public final class BundlePins implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BundlePins.class);
  private static final String RETRY = "interval '1 minute'";
  private static final String DUE =
      "SELECT b.image, bool_or(s.name IS NOT NULL) AS subscribed FROM catalog_bundles b "
          + "JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision "
          + "LEFT JOIN subscriptions s ON s.catalog = b.catalog AND s.package = b.package "
          + "WHERE b.embedded = false AND b.image_digest IS NULL "
          + "AND (b.pin_error IS NULL OR b.pinned_at < now() - "
          + RETRY
          + ") "
          + "GROUP BY b.image ORDER BY subscribed DESC, b.image LIMIT $1";
  // every current revision naming the tag gets the same answer: resolved once per revision, at the
  // same moment
  private static final String PINNED =
      "UPDATE catalog_bundles b SET image_digest = $2, pin_error = NULL, "
          + "pinned_at = now() FROM catalogs c WHERE c.name = b.catalog AND c.current_revision = b.revision "
          + "AND b.image = $1 AND b.embedded = false AND b.image_digest IS NULL";
  private static final String UNPINNED =
      "UPDATE catalog_bundles b SET pin_error = $2, pinned_at = now() "
          + "FROM catalogs c WHERE c.name = b.catalog AND c.current_revision = b.revision "
          + "AND b.image = $1 AND b.embedded = false AND b.image_digest IS NULL";
  private static final int BATCH = 16;

  private final Vertx vertx;
  private final Pool pool;
  private final RegistryPool workers;
  private final long timer;
  private final AtomicLong completed = new AtomicLong();
  private boolean running;

  BundlePins(Vertx vertx, Pool pool, RegistryPool workers, long periodMillis) {
    this.vertx = vertx;
    this.pool = pool;
    this.workers = workers;
    this.timer = vertx.setPeriodic(periodMillis, id -> sweep());
  }

  /** {@code image} with its tag (or digest) replaced by {@code digest}: what an unpack pulls. */
  public static String pinned(String image, String digest) {
    return image.replaceAll("(:[^/:@]+)?(@sha256:[0-9a-f]{64})?$", "") + "@" + digest;
  }

  /**
   * Sweeps completed (each took the tags due at its start): tests await them rather than waiting
   * for time to pass.
   */
  long completedSweeps() {
    return completed.get();
  }

  /** Resolves one batch of unpinned tags; a sweep still running skips the next tick. */
  Future<Integer> sweep() {
    if (running) {
      return Future.succeededFuture(0);
    }
    running = true;
    return pool.preparedQuery(DUE)
        .execute(Tuple.of(BATCH))
        .compose(
            rows -> {
              List<Future<Void>> pins = new ArrayList<>();
              rows.forEach(r -> pins.add(pin(r.getString("image"))));
              return Future.join(pins).map(pins.size());
            })
        .onComplete(
            ar -> {
              running = false;
              completed.incrementAndGet();
            })
        .onFailure(e -> LOG.debug("bundle pin sweep: {}", e.toString()));
  }

  private Future<Void> pin(String image) {
    return workers
        .call(image, puller -> puller.resolve(image).digest())
        // the unpack sweep then records the pinned digests of subscribed packages
        // (BundleImageStore's prefetch)
        .compose(
            digest ->
                pool.preparedQuery(PINNED)
                    .execute(Tuple.of(image, digest))
                    .onSuccess(v -> LOG.info("bundle image {} pinned to {}", image, digest))
                    .<Void>mapEmpty(),
            e -> {
              String message =
                  e instanceof RegistryException
                      ? e.getMessage()
                      : "cannot resolve " + image + ": " + e.getClass().getSimpleName();
              LOG.info("bundle image {} not pinned: {}", image, message);
              return pool.preparedQuery(UNPINNED).execute(Tuple.of(image, message)).mapEmpty();
            });
  }

  @Override
  public void close() {
    vertx.cancelTimer(timer);
    workers.close();
  }
}
