package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.problem.ApiException;
import io.olmstead.controlplane.registry.BundlePins;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The bundle images a rollout's target needs before its first wave opens: the bundles of the
 * subscription's package on every participant's upgrade path and the target version's bundle, in
 * the catalog's current revision, that carry no embedded objects. The preview lists those not
 * unpacked yet; creation records them for unpacking (the unpack sweep pulls them) and is refused
 * until they are: 409 while Pending/Unpacking, 422 with the message when Failed.
 */
final class RolloutBundles {
  /**
   * Dependencies of the package are not listed: agents ask for them, and they are unpacked then.
   */
  private static final String NEEDED =
      "SELECT b.bundle, b.version, b.image, b.image_digest, b.pin_error, "
          + "i.state, i.message, i.next_attempt_at FROM catalog_bundles b "
          + "JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision "
          + "LEFT JOIN bundle_images i ON i.digest = b.image_digest "
          + "WHERE b.catalog = $1 AND b.package = $2 AND (b.bundle = ANY($3) OR b.version = $4) "
          + "AND b.embedded IS NOT TRUE AND (b.image_digest IS NOT NULL OR b.embedded = false) "
          + "AND (i.state IS NULL OR i.state <> 'Unpacked') ORDER BY b.version, b.bundle";

  private static final String REQUEST =
      "INSERT INTO bundle_images (digest, image) "
          + "SELECT x.digest, x.image FROM unnest($1::text[], $2::text[]) AS x(digest, image) "
          + "ON CONFLICT (digest) DO NOTHING";

  /** The unpack sweep's period: a Pending bundle with no retry time is looked at within this. */
  static final long SWEEP_SECONDS = 5;

  /** A needed bundle not unpacked: {@code state} null when nobody asked for it yet. */
  record Missing(
      String bundle,
      String version,
      String image,
      String digest,
      String state,
      String message,
      OffsetDateTime nextAttemptAt) {
    boolean failed() {
      return "Failed".equals(state);
    }

    /**
     * The image pinned by its digest (a tag replaced by what it was resolved to for the revision).
     */
    String pinned() {
      return BundlePins.pinned(image, digest);
    }

    JsonObject toJson() {
      JsonObject json =
          new JsonObject()
              .put("bundle", bundle)
              .put("version", version)
              .put("image", image)
              .put("state", state == null ? "NotRequested" : state);
      if (digest != null) {
        json.put("digest", digest);
      }
      if (message != null) {
        json.put("message", message);
      }
      if (nextAttemptAt != null) {
        json.put("nextAttemptAt", nextAttemptAt.toString());
      }
      return json;
    }
  }

  /** The needed bundles of {@code plan} not unpacked yet, by version. */
  Future<List<Missing>> notUnpacked(
      SqlClient conn, RolloutPlanLoader.Plan plan, String targetVersion) {
    Set<String> names = new LinkedHashSet<>();
    plan.paths()
        .values()
        .forEach(steps -> steps.forEach(s -> names.add(((JsonObject) s).getString("bundle"))));
    var spec = plan.subscription().spec();
    return conn.preparedQuery(NEEDED)
        .execute(
            Tuple.of(
                spec.catalog(), spec.packageName(), names.toArray(new String[0]), targetVersion))
        .map(
            rows -> {
              List<Missing> out = new ArrayList<>();
              rows.forEach(
                  r -> {
                    String pinError = r.getString("pin_error");
                    boolean unresolved = r.getString("image_digest") == null;
                    out.add(
                        new Missing(
                            r.getString("bundle"),
                            r.getString("version"),
                            r.getString("image"),
                            r.getString("image_digest"),
                            unresolved
                                ? (pinError == null ? "Pending" : "Failed")
                                : r.getString("state"),
                            unresolved
                                ? (pinError == null
                                    ? "the tag is not resolved to a digest yet"
                                    : pinError)
                                : r.getString("message"),
                            r.getOffsetDateTime("next_attempt_at")));
                  });
              return out;
            });
  }

  /**
   * Records the missing bundles whose digest is known (Pending; a Failed one stays Failed until
   * asked again).
   */
  Future<Void> request(SqlClient pool, List<Missing> missing) {
    List<String> digests = new ArrayList<>();
    List<String> images = new ArrayList<>();
    missing.stream()
        .filter(m -> m.digest() != null && m.state() == null)
        .forEach(
            m -> {
              digests.add(m.digest());
              images.add(m.pinned());
            });
    return digests.isEmpty()
        ? Future.succeededFuture()
        : pool.preparedQuery(REQUEST)
            .execute(
                Tuple.tuple()
                    .addArrayOfString(digests.toArray(new String[0]))
                    .addArrayOfString(images.toArray(new String[0])))
            .mapEmpty();
  }

  /**
   * The refusal of a creation: 422 naming every Failed bundle with its message, else 409 with
   * Retry-After.
   */
  static ApiException refusal(List<Missing> missing, OffsetDateTime now) {
    return refusal(missing, now, "targetVersion");
  }

  /** As {@link #refusal(List, OffsetDateTime)}, a Failed bundle's error naming {@code field}. */
  static ApiException refusal(List<Missing> missing, OffsetDateTime now, String field) {
    JsonArray bundles = new JsonArray();
    missing.forEach(
        m -> bundles.add(m.toJson().put("state", m.state() == null ? "Pending" : m.state())));
    List<Missing> failed = missing.stream().filter(Missing::failed).toList();
    if (!failed.isEmpty()) {
      JsonArray errors = new JsonArray();
      failed.forEach(
          m ->
              errors.add(
                  new JsonObject()
                      .put("field", field)
                      .put(
                          "message",
                          "bundle " + m.bundle() + " (" + m.image() + "): " + m.message())));
      return ApiException.validationFailed(
              "the bundle image of "
                  + failed.get(0).bundle()
                  + " failed to unpack: "
                  + failed.get(0).message(),
              errors)
          .with("reason", "BundleUnpackFailed")
          .with("state", "Failed")
          .with("bundles", bundles);
    }
    long retryAfter =
        missing.stream()
            .map(Missing::nextAttemptAt)
            .filter(t -> t != null && t.isAfter(now))
            .mapToLong(t -> Duration.between(now, t).toSeconds() + 1)
            .max()
            .orElse(SWEEP_SECONDS);
    Missing first = missing.get(0);
    String state = first.state() == null ? "Pending" : first.state();
    return new ApiException(
            409,
            "conflict",
            "Conflict",
            missing.size()
                + " bundle image(s) of the target "
                + "are not unpacked yet ("
                + first.bundle()
                + ": "
                + state
                + "); unpacking has been requested, retry later",
            null)
        .with("reason", "BundleNotUnpacked")
        .with("state", state)
        .with("bundles", bundles)
        .withHeader("Retry-After", Long.toString(Math.max(1, retryAfter)));
  }
}
