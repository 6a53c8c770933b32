package io.olmstead.controlplane.catalog;

import io.olmstead.controlplane.config.RegistrySettings;
import io.olmstead.controlplane.image.ImageReferences;
import io.olmstead.controlplane.problem.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;

/**
 * A catalog's image source ({@code source: {image, pollIntervalSeconds}}) and what its poller last
 * saw. Changing the image forgets the resolved digest so the next poll reads it again.
 */
public record CatalogSourceState(
    String image,
    int pollIntervalSeconds,
    OffsetDateTime lastPollAt,
    String resolvedDigest,
    String lastError) {

  public static final int DEFAULT_POLL_SECONDS = 3600;
  static final String COLUMNS =
      "c.source_image, c.poll_interval_seconds, c.last_poll_at, c.source_digest, " + "c.last_error";
  private static final String STORE =
      "UPDATE catalogs SET "
          + "source_digest = CASE WHEN source_image IS DISTINCT FROM $2 THEN NULL ELSE source_digest END, "
          + "last_poll_at = CASE WHEN source_image IS DISTINCT FROM $2 THEN NULL ELSE last_poll_at END, "
          + "last_error = CASE WHEN source_image IS DISTINCT FROM $2 THEN NULL ELSE last_error END, "
          + "last_success_at = CASE WHEN source_image IS DISTINCT FROM $2 THEN NULL ELSE last_success_at END, "
          + "source_image = $2, poll_interval_seconds = $3 WHERE name = $1";

  static CatalogSourceState of(Row row, int from) {
    String image = row.getString(from);
    return image == null
        ? null
        : new CatalogSourceState(
            image,
            row.getInteger(from + 1),
            row.getOffsetDateTime(from + 2),
            row.getString(from + 3),
            row.getString(from + 4));
  }

  /**
   * The spec's schema checks types and bounds; the image must be a valid reference (port, tag,
   * digest) whose registry is not a loopback, link-local or metadata address unless listed ({@link
   * ImageReferences#check}).
   */
  static void validate(JsonObject source, RegistrySettings registries) {
    if (source == null) {
      return;
    }
    ImageReferences.check(source.getString("image", ""), registries)
        .ifPresent(
            problem -> {
              throw ApiException.validationFailed(
                  "the source image is not usable: " + problem,
                  new JsonArray()
                      .add(new JsonObject().put("field", "/source/image").put("message", problem)));
            });
  }

  static Future<Void> store(SqlConnection conn, String name, JsonObject source) {
    String image = source == null ? null : source.getString("image");
    Integer interval =
        source == null ? null : source.getInteger("pollIntervalSeconds", DEFAULT_POLL_SECONDS);
    return conn.preparedQuery(STORE).execute(Tuple.of(name, image, interval)).mapEmpty();
  }

  void addTo(JsonObject json) {
    json.put(
        "source",
        new JsonObject().put("image", image).put("pollIntervalSeconds", pollIntervalSeconds));
    if (lastPollAt != null) {
      json.put("lastPollAt", lastPollAt.toString());
    }
    if (resolvedDigest != null) {
      json.put("resolvedDigest", resolvedDigest);
    }
    if (lastError != null) {
      json.put("lastError", lastError);
    }
  }
}
