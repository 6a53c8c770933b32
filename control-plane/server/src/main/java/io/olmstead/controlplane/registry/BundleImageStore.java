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
 * SQL for {@code bundle_images}, keyed by digest with every reference seen. A pull is claimed with
 * a conditional update, so of all the requests (and replicas) asking for one digest exactly one
 * pulls; a claim lapses after {@code CLAIM} so a replica that died mid-pull does not hold the
 * bundle forever.
 */
final class BundleImageStore {
  private static final String CLAIM = "interval '10 minutes'";
  private static final int MAX_REFERENCES = 8;
  // a reference not seen before is recorded (latest first) and becomes the one shown; a Failed
  // digest named by a new
  // reference, or by a catalog revision newer than its failure, is Pending again (attempts reset);
  // otherwise no write
  // rows recorded elsewhere (the agent gateway) carry only `image`
  private static final String KNOWN =
      "(CASE WHEN cardinality(bundle_images.images) = 0 "
          + "THEN ARRAY[bundle_images.image] ELSE bundle_images.images END)";
  private static final String NEW_REFERENCE = "NOT (EXCLUDED.image = ANY " + KNOWN + ")";
  private static final String UPSERT =
      " ON CONFLICT (digest) DO UPDATE SET "
          + "images = CASE WHEN "
          + NEW_REFERENCE
          + " THEN (ARRAY[EXCLUDED.image] || "
          + KNOWN
          + ")[1:"
          + MAX_REFERENCES
          + "] ELSE bundle_images.images END, "
          + "image = CASE WHEN "
          + NEW_REFERENCE
          + " THEN EXCLUDED.image ELSE bundle_images.image END, "
          + "named_at = GREATEST(bundle_images.named_at, EXCLUDED.named_at), "
          + "attempts = CASE WHEN bundle_images.state = 'Failed' THEN 0 ELSE bundle_images.attempts END, "
          + "next_attempt_at = CASE WHEN bundle_images.state = 'Failed' THEN NULL ELSE bundle_images.next_attempt_at END, "
          + "state = CASE WHEN bundle_images.state = 'Failed' THEN 'Pending' ELSE bundle_images.state END, "
          + "updated_at = now() "
          + "WHERE "
          + NEW_REFERENCE
          + " OR (bundle_images.state = 'Failed' AND EXCLUDED.named_at > bundle_images.updated_at)";
  private static final String INSERT =
      "INSERT INTO bundle_images (digest, image, images) VALUES ($1, $2, ARRAY[$2])" + UPSERT;
  private static final String GET =
      "SELECT " + BundleImage.COLUMNS + " FROM bundle_images WHERE digest = $1";
  private static final String DUE_NOW =
      "(state = 'Pending' AND (next_attempt_at IS NULL OR next_attempt_at <= now()) "
          + "AND (claimed_until IS NULL OR claimed_until < now())) OR (state = 'Unpacking' AND claimed_until < now())";
  // the claim keeps the bundle Pending: it shows Unpacking only once a worker takes it (STARTED)
  private static final String CLAIM_DUE =
      "UPDATE bundle_images SET state = 'Pending', attempts = attempts + 1, "
          + "claimed_until = now() + "
          + CLAIM
          + ", updated_at = now() WHERE digest = $1 AND ("
          + DUE_NOW
          + ") "
          + "RETURNING attempts, "
          + KNOWN;
  private static final String STARTED =
      "UPDATE bundle_images SET state = 'Unpacking', updated_at = now() "
          + "WHERE digest = $1 AND state = 'Pending' AND claimed_until > now()";
  private static final String RETRY_FAILED =
      "UPDATE bundle_images SET state = 'Pending', attempts = 0, "
          + "next_attempt_at = NULL, updated_at = now() WHERE digest = $1 AND state = 'Failed'";
  private static final String UNPACKED =
      "UPDATE bundle_images SET state = 'Unpacked', objects_gz = $2, "
          + "object_count = $3, size_bytes = $4, message = NULL, next_attempt_at = NULL, claimed_until = NULL, "
          + "updated_at = now() WHERE digest = $1";
  private static final String FAILED =
      "UPDATE bundle_images SET state = $2, message = $3, "
          + "next_attempt_at = now() + make_interval(secs => $4), claimed_until = NULL, updated_at = now() "
          + "WHERE digest = $1 AND state IN ('Pending', 'Unpacking') AND claimed_until IS NOT NULL";
  private static final String DUE =
      "SELECT digest FROM bundle_images WHERE " + DUE_NOW + " ORDER BY updated_at LIMIT $1";
  // every digest-pinned bundle of a subscribed package in its catalog's current revision: unpacked
  // before agents ask
  // (a superset of any channel path a subscription may take; dependencies are unpacked when an
  // agent first asks)
  // image_digest: the digest a digest-pinned image names, or the one its tag was resolved to for
  // the revision;
  // bundles with embedded objects need no image. A new reference or a newer revision retries a
  // Failed digest (UPSERT).
  private static final String PREFETCH =
      "INSERT INTO bundle_images (digest, image, images, named_at) "
          + "SELECT DISTINCT ON (b.image_digest) b.image_digest, pinned_image(b.image, b.image_digest), "
          + "ARRAY[pinned_image(b.image, b.image_digest)], r.created_at "
          + "FROM subscriptions s JOIN catalogs c ON c.name = s.catalog "
          + "JOIN catalog_revisions r ON r.catalog = c.name AND r.revision = c.current_revision "
          + "JOIN catalog_bundles b ON b.catalog = c.name AND b.revision = c.current_revision AND b.package = s.package "
          + "WHERE b.image_digest IS NOT NULL AND b.embedded IS NOT TRUE"
          + UPSERT;
  private static final String OBJECTS =
      "SELECT objects_gz FROM bundle_images WHERE digest = $1 AND state = 'Unpacked'";

  private final Pool pool;

  BundleImageStore(Pool pool) {
    this.pool = pool;
  }

  /**
   * Records the digest (Pending) unless known; a Failed one is made Pending again (an explicit
   * request retries).
   */
  Future<Void> ensure(String digest, String image, boolean retryFailed) {
    Future<RowSet<Row>> insert = pool.preparedQuery(INSERT).execute(Tuple.of(digest, image));
    return retryFailed
        ? insert.compose(r -> pool.preparedQuery(RETRY_FAILED).execute(Tuple.of(digest))).mapEmpty()
        : insert.mapEmpty();
  }

  Future<Optional<BundleImage>> get(String digest) {
    return pool.preparedQuery(GET)
        .execute(Tuple.of(digest))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(BundleImage.of(rows.iterator().next())));
  }

  /** A claimed pull: the attempt number and the references to try, latest first. */
  record Claim(int attempt, List<String> images) {}

  /** Claims the pull when it is due (the bundle stays Pending until a worker starts it). */
  Future<Optional<Claim>> claim(String digest) {
    return pool.preparedQuery(CLAIM_DUE)
        .execute(Tuple.of(digest))
        .map(
            rows -> {
              if (rows.size() == 0) {
                return Optional.empty();
              }
              Row row = rows.iterator().next();
              return Optional.of(new Claim(row.getInteger(0), List.of(row.getArrayOfStrings(1))));
            });
  }

  /** A worker took the claimed pull: Unpacking from now (no-op when it already ended). */
  Future<Void> started(String digest) {
    return pool.preparedQuery(STARTED).execute(Tuple.of(digest)).mapEmpty();
  }

  Future<Void> unpacked(String digest, byte[] objectsGz, int count, long size) {
    return pool.preparedQuery(UNPACKED)
        .execute(Tuple.of(digest, Buffer.buffer(objectsGz), count, size))
        .mapEmpty();
  }

  /**
   * A failed attempt: {@code Pending} again after {@code retryAfterSeconds}, or {@code Failed} for
   * good.
   */
  Future<Void> failed(String digest, boolean retry, String message, double retryAfterSeconds) {
    return pool.preparedQuery(FAILED)
        .execute(
            Tuple.of(
                digest,
                retry ? BundleImage.PENDING : BundleImage.FAILED,
                message,
                retry ? retryAfterSeconds : 0.0))
        .mapEmpty();
  }

  /** Records the bundles of subscribed packages not known yet (Pending); the number recorded. */
  Future<Integer> prefetch() {
    return pool.query(PREFETCH).execute().map(RowSet::rowCount);
  }

  /** Digests whose pull is due (retries, lapsed claims), oldest first. */
  Future<List<String>> due(int limit) {
    return pool.preparedQuery(DUE)
        .execute(Tuple.of(limit))
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString(0)));
              return out;
            });
  }

  /** The gzip of an unpacked bundle's objects document; empty when not unpacked. */
  Future<Optional<Buffer>> objects(String digest) {
    return pool.preparedQuery(OBJECTS)
        .execute(Tuple.of(digest))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.empty()
                    : Optional.of(rows.iterator().next().getBuffer(0)));
  }
}
