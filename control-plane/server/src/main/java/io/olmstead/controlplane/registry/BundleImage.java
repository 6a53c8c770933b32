package io.olmstead.controlplane.registry;

import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;

/**
 * A bundle image's unpack state, as stored in {@code bundle_images} and shown by {@code GET
 * /bundles/{digest}}.
 */
public record BundleImage(
    String digest,
    String image,
    String state,
    String message,
    int attempts,
    OffsetDateTime nextAttemptAt,
    Integer objectCount,
    Long sizeBytes,
    OffsetDateTime updatedAt) {

  public static final String PENDING = "Pending";
  public static final String UNPACKING = "Unpacking";
  public static final String UNPACKED = "Unpacked";
  public static final String FAILED = "Failed";

  static final String COLUMNS =
      "digest, image, state, message, attempts, next_attempt_at, object_count, size_bytes, "
          + "updated_at";

  static BundleImage of(Row row) {
    return new BundleImage(
        row.getString("digest"),
        row.getString("image"),
        row.getString("state"),
        row.getString("message"),
        row.getInteger("attempts"),
        row.getOffsetDateTime("next_attempt_at"),
        row.getInteger("object_count"),
        row.getLong("size_bytes"),
        row.getOffsetDateTime("updated_at"));
  }

  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("digest", digest)
            .put("image", image)
            .put("state", state)
            .put("attempts", attempts)
            .put("updatedAt", updatedAt.toString());
    if (message != null) {
      json.put("message", message);
    }
    if (nextAttemptAt != null) {
      json.put("nextAttemptAt", nextAttemptAt.toString());
    }
    if (objectCount != null) {
      json.put("objects", objectCount).put("sizeBytes", sizeBytes);
    }
    return json;
  }
}
