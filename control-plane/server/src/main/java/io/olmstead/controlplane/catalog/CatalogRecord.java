package io.olmstead.controlplane.catalog;

import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;

/** A stored catalog with a summary of its current revision (null fields until the first upload). */
public record CatalogRecord(
    String name,
    String displayName,
    int priority,
    long resourceVersion,
    Integer currentRevision,
    String currentDigest,
    OffsetDateTime createdAt,
    OffsetDateTime updatedAt,
    CatalogSourceState source) {

  static final String COLUMNS =
      "c.name, c.display_name, c.priority, c.resource_version, c.current_revision, "
          + "r.digest, c.created_at, c.updated_at, "
          + CatalogSourceState.COLUMNS;
  static final String FROM =
      "catalogs c LEFT JOIN catalog_revisions r "
          + "ON r.catalog = c.name AND r.revision = c.current_revision";

  static CatalogRecord of(Row row) {
    return new CatalogRecord(
        row.getString(0),
        row.getString(1),
        row.getInteger(2),
        row.getLong(3),
        row.getInteger(4),
        row.getString(5),
        row.getOffsetDateTime(6),
        row.getOffsetDateTime(7),
        CatalogSourceState.of(row, 8));
  }

  public String etag() {
    return "\"" + resourceVersion + "\"";
  }

  public JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("name", name)
            .put("displayName", displayName)
            .put("priority", priority)
            .put("resourceVersion", resourceVersion)
            .put("currentRevision", currentRevision)
            .put("currentDigest", currentDigest)
            .put("createdAt", createdAt == null ? null : createdAt.toString())
            .put("updatedAt", updatedAt == null ? null : updatedAt.toString());
    json.getMap().values().removeIf(v -> v == null);
    if (source != null) {
      source.addTo(json);
    }
    return json;
  }
}
