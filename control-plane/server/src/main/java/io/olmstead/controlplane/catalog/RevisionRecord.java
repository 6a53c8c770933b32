package io.olmstead.controlplane.catalog;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;

/** One immutable catalog revision: its digest, counts, warnings and who uploaded it when. */
public record RevisionRecord(
    String catalog,
    int revision,
    String digest,
    String validation,
    int packages,
    int channels,
    int bundles,
    JsonArray warnings,
    String uploadedBy,
    long sizeBytes,
    String mediaType,
    OffsetDateTime createdAt) {

  static final String COLUMNS =
      "r.catalog, r.revision, r.digest, r.validation, r.package_count, r.channel_count, "
          + "r.bundle_count, r.warnings, r.uploaded_by, x.size_bytes, x.media_type, r.created_at";
  static final String FROM = "catalog_revisions r JOIN catalog_contents x ON x.digest = r.digest";

  static RevisionRecord of(Row row) {
    Object warnings = row.getValue(7);
    return new RevisionRecord(
        row.getString(0),
        row.getInteger(1),
        row.getString(2),
        row.getString(3),
        row.getInteger(4),
        row.getInteger(5),
        row.getInteger(6),
        warnings instanceof JsonArray a ? a : new JsonArray(),
        row.getString(8),
        row.getLong(9),
        row.getString(10),
        row.getOffsetDateTime(11));
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("catalog", catalog)
        .put("revision", revision)
        .put("digest", digest)
        .put("validation", validation)
        .put("packages", packages)
        .put("channels", channels)
        .put("bundles", bundles)
        .put("warnings", warnings)
        .put("sizeBytes", sizeBytes)
        .put("mediaType", mediaType)
        .put("createdBy", uploadedBy)
        .put("createdAt", createdAt == null ? null : createdAt.toString());
  }
}
