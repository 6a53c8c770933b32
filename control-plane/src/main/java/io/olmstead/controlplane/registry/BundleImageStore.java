package io.olmstead.controlplane.registry;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL for {@code bundle_images}. A pull is claimed with a conditional update, so of all the requests (and replicas)
 * asking for one digest exactly one pulls; a claim lapses after {@code CLAIM} so a replica that died mid-pull does
 * not hold the bundle forever.
 */
final class BundleImageStore {
  private static final String CLAIM = "interval '10 minutes'";
  private static final String INSERT = "INSERT INTO bundle_images (digest, image) VALUES ($1, $2) "
      + "ON CONFLICT (digest) DO NOTHING";
  private static final String GET = "SELECT " + BundleImage.COLUMNS + " FROM bundle_images WHERE digest = $1";
  private static final String CLAIM_DUE = "UPDATE bundle_images SET state = 'Unpacking', attempts = attempts + 1, "
      + "claimed_until = now() + " + CLAIM + ", updated_at = now() WHERE digest = $1 AND ("
      + "(state = 'Pending' AND (next_attempt_at IS NULL OR next_attempt_at <= now())) "
      + "OR (state = 'Unpacking' AND claimed_until < now())) RETURNING attempts";
  private static final String RETRY_FAILED = "UPDATE bundle_images SET state = 'Pending', attempts = 0, "
      + "next_attempt_at = NULL, updated_at = now() WHERE digest = $1 AND state = 'Failed'";
  private static final String UNPACKED = "UPDATE bundle_images SET state = 'Unpacked', objects_gz = $2, "
      + "object_count = $3, size_bytes = $4, message = NULL, next_attempt_at = NULL, claimed_until = NULL, "
      + "updated_at = now() WHERE digest = $1";
  private static final String FAILED = "UPDATE bundle_images SET state = $2, message = $3, "
      + "next_attempt_at = now() + make_interval(secs => $4), claimed_until = NULL, updated_at = now() "
      + "WHERE digest = $1 AND state = 'Unpacking'";
  private static final String DUE = "SELECT digest, image FROM bundle_images WHERE "
      + "(state = 'Pending' AND (next_attempt_at IS NULL OR next_attempt_at <= now())) "
      + "OR (state = 'Unpacking' AND claimed_until < now()) ORDER BY updated_at LIMIT $1";
  // every digest-pinned bundle of a subscribed package in its catalog's current revision: unpacked before agents ask
  // (a superset of any channel path a subscription may take; dependencies are unpacked when an agent first asks)
  // (image_digest: the digest a digest-pinned image names, or the one its tag was resolved to for the revision;
  // bundles with embedded objects need no image)
  private static final String PREFETCH = "INSERT INTO bundle_images (digest, image) "
      + "SELECT DISTINCT ON (b.image_digest) b.image_digest, "
      + "pinned_image(b.image, b.image_digest) "
      + "FROM subscriptions s JOIN catalogs c ON c.name = s.catalog "
      + "JOIN catalog_bundles b ON b.catalog = c.name AND b.revision = c.current_revision AND b.package = s.package "
      + "WHERE b.image_digest IS NOT NULL AND b.embedded IS NOT TRUE ON CONFLICT (digest) DO NOTHING";
  private static final String OBJECTS = "SELECT objects_gz FROM bundle_images WHERE digest = $1 AND state = 'Unpacked'";

  private final Pool pool;

  BundleImageStore(Pool pool) {
    this.pool = pool;
  }

  /** Records the digest (Pending) unless known; a Failed one is made Pending again (an explicit request retries). */
  Future<Void> ensure(String digest, String image, boolean retryFailed) {
    Future<RowSet<Row>> insert = pool.preparedQuery(INSERT).execute(Tuple.of(digest, image));
    return retryFailed ? insert.compose(r -> pool.preparedQuery(RETRY_FAILED).execute(Tuple.of(digest))).mapEmpty()
        : insert.mapEmpty();
  }

  Future<Optional<BundleImage>> get(String digest) {
    return pool.preparedQuery(GET).execute(Tuple.of(digest))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(BundleImage.of(rows.iterator().next())));
  }

  /** Claims the pull when it is due; the attempt number when claimed. */
  Future<Optional<Integer>> claim(String digest) {
    return pool.preparedQuery(CLAIM_DUE).execute(Tuple.of(digest))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getInteger(0)));
  }

  Future<Void> unpacked(String digest, byte[] objectsGz, int count, long size) {
    return pool.preparedQuery(UNPACKED).execute(Tuple.of(digest, Buffer.buffer(objectsGz), count, size)).mapEmpty();
  }

  /** A failed attempt: {@code Pending} again after {@code retryAfterSeconds}, or {@code Failed} for good. */
  Future<Void> failed(String digest, boolean retry, String message, double retryAfterSeconds) {
    return pool.preparedQuery(FAILED).execute(Tuple.of(digest, retry ? BundleImage.PENDING : BundleImage.FAILED,
        message, retry ? retryAfterSeconds : 0.0)).mapEmpty();
  }

  /** Records the bundles of subscribed packages not known yet (Pending); the number recorded. */
  Future<Integer> prefetch() {
    return pool.query(PREFETCH).execute().map(RowSet::rowCount);
  }

  /** Digests whose pull is due (retries, lapsed claims), oldest first. */
  Future<List<String[]>> due(int limit) {
    return pool.preparedQuery(DUE).execute(Tuple.of(limit)).map(rows -> {
      List<String[]> out = new ArrayList<>();
      rows.forEach(r -> out.add(new String[] {r.getString(0), r.getString(1)}));
      return out;
    });
  }

  /** The gzip of an unpacked bundle's objects document; empty when not unpacked. */
  Future<Optional<Buffer>> objects(String digest) {
    return pool.preparedQuery(OBJECTS).execute(Tuple.of(digest))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getBuffer(0)));
  }
}
