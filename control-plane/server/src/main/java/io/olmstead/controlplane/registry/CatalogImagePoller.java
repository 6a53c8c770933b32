package io.olmstead.controlplane.registry;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.catalog.RevisionUpload;
import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.olmcore.bundle.BundleUnpackException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls catalogs that have an image source: resolves the reference (worker pool), and when the
 * digest differs from the last one read, pulls the image's FBC directory and stores it as a
 * revision exactly like a strict upload. Any failure (registry, no FBC directory, invalid FBC with
 * every error) is kept in {@code last_error} and the previous revision stays current. Polls run one
 * at a time per replica; {@code last_poll_at} keeps replicas from repeating one.
 */
final class CatalogImagePoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogImagePoller.class);
  private static final Principal POLLER =
      new Principal(new UUID(0, 0), "catalog-image-poller", Role.ADMIN, List.of());
  // claims the due catalogs (last_poll_at moves first), so another replica's tick skips them
  private static final String CLAIM =
      "UPDATE catalogs SET last_poll_at = now() WHERE name IN (SELECT name "
          + "FROM catalogs WHERE source_image IS NOT NULL AND (last_poll_at IS NULL "
          + "OR last_poll_at + make_interval(secs => poll_interval_seconds) <= now()) "
          + "ORDER BY last_poll_at NULLS FIRST LIMIT 5 FOR UPDATE SKIP LOCKED) "
          + "RETURNING name, source_image, source_digest";
  private static final String RESULT =
      "UPDATE catalogs SET source_digest = COALESCE($3, source_digest), "
          + "last_error = $4::text, last_success_at = CASE WHEN $4::text IS NULL THEN now() ELSE last_success_at END "
          + "WHERE name = $1 AND source_image = $2";
  private static final int MAX_ERROR = 8192;

  private final Vertx vertx;
  private final Pool pool;
  private final RegistryPool workers;
  private final CatalogImagePull pull;
  private final RevisionUpload revisions;
  private final CatalogPollMetrics metrics;
  private final long timer;
  private boolean running;

  /**
   * {@code workers}: the poller's own pool, so bundle unpacks (however many, however stuck) never
   * delay a poll.
   */
  CatalogImagePoller(
      Vertx vertx,
      Pool pool,
      RegistryPool workers,
      CatalogImagePull pull,
      RevisionUpload revisions,
      CatalogPollMetrics metrics,
      long periodMillis) {
    this.vertx = vertx;
    this.pool = pool;
    this.workers = workers;
    this.pull = pull;
    this.revisions = revisions;
    this.metrics = metrics;
    this.timer = vertx.setPeriodic(periodMillis, id -> tick());
  }

  private void tick() {
    if (running) {
      return;
    }
    running = true;
    pool.preparedQuery(CLAIM)
        .execute()
        .compose(
            rows -> {
              List<Row> due = new ArrayList<>();
              rows.forEach(due::add);
              Future<Void> chain = Future.succeededFuture();
              for (Row row : due) {
                chain =
                    chain.compose(v -> poll(row.getString(0), row.getString(1), row.getString(2)));
              }
              return chain;
            })
        .onComplete(ar -> running = false);
  }

  private Future<Void> poll(String name, String image, String lastDigest) {
    return workers
        .call(image, puller -> puller.resolve(image))
        .compose(
            manifest -> {
              if (manifest.digest().equals(lastDigest)) {
                return record(name, image, lastDigest, null);
              }
              return workers
                  .call(image, puller -> pull.read(puller, manifest))
                  .compose(tarGz -> revisions.fromImage(POLLER, name, tarGz))
                  .compose(
                      reply -> {
                        LOG.info(
                            "catalog {}: image {} at {} stored (HTTP {})",
                            name,
                            image,
                            manifest.digest(),
                            reply.status());
                        return record(name, image, manifest.digest(), null);
                      });
            })
        .recover(e -> record(name, image, null, describe(e)));
  }

  private Future<Void> record(String name, String image, String digest, String error) {
    if (error != null) {
      LOG.info("catalog {}: image {} not stored: {}", name, image, error);
      metrics.failed(name);
    }
    // a null error binds untyped: the statement casts it, so that both uses of $4 agree on text
    return pool.preparedQuery(RESULT)
        .execute(Tuple.of(name, image, digest, error))
        .<Void>mapEmpty()
        .recover(
            e -> {
              LOG.warn("catalog {}: poll result not stored: {}", name, e.toString());
              return Future.succeededFuture();
            });
  }

  /** The registry's or the validator's message, with every validation error (bounded). */
  static String describe(Throwable e) {
    String text;
    if (e instanceof ApiException api) {
      JsonArray errors = api.toProblem().getJsonArray("errors");
      text = api.getMessage() + (errors == null ? "" : ": " + errors.encode());
    } else if (e instanceof RegistryException || e instanceof BundleUnpackException) {
      text = e.getMessage();
    } else {
      text = "poll failed: " + e.getClass().getSimpleName();
    }
    return text.length() > MAX_ERROR ? text.substring(0, MAX_ERROR) + "…" : text;
  }

  @Override
  public void close() {
    vertx.cancelTimer(timer);
    metrics.close();
    workers.close();
  }
}
