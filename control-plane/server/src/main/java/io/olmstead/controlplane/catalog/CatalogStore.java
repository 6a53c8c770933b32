package io.olmstead.controlplane.catalog;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL for catalogs and their immutable revisions; mutations take the caller's transaction
 * connection.
 */
public final class CatalogStore {
  private static final String SELECT =
      "SELECT " + CatalogRecord.COLUMNS + " FROM " + CatalogRecord.FROM;
  private static final String GET = SELECT + " WHERE c.name = $1";
  private static final String LOCK =
      "SELECT resource_version, current_revision FROM catalogs WHERE name = $1 FOR UPDATE";
  private static final String LIST =
      SELECT + " WHERE ($1::text IS NULL OR c.name > $1) ORDER BY c.name LIMIT $2";
  private static final String INSERT =
      "INSERT INTO catalogs (name, display_name, priority) VALUES ($1, $2, $3)";
  private static final String UPDATE =
      "UPDATE catalogs SET display_name = $2, priority = $3, "
          + "resource_version = resource_version + 1, updated_at = now() WHERE name = $1";
  private static final String IN_USE =
      "SELECT name FROM subscriptions WHERE catalog = $1 ORDER BY name LIMIT 5";
  private static final String DIGESTS_OF =
      "SELECT DISTINCT digest FROM catalog_revisions WHERE catalog = $1";
  private static final String DELETE = "DELETE FROM catalogs WHERE name = $1";
  private static final String DELETE_ORPHANS =
      "DELETE FROM catalog_contents x WHERE x.digest = ANY($1) "
          + "AND NOT EXISTS (SELECT 1 FROM catalog_revisions r WHERE r.digest = x.digest)";
  private static final String REVISION =
      "SELECT "
          + RevisionRecord.COLUMNS
          + " FROM "
          + RevisionRecord.FROM
          + " WHERE r.catalog = $1 AND r.revision = $2";
  private static final String REVISIONS =
      "SELECT "
          + RevisionRecord.COLUMNS
          + " FROM "
          + RevisionRecord.FROM
          + " WHERE r.catalog = $1 AND ($2::int IS NULL OR r.revision < $2) ORDER BY r.revision DESC LIMIT $3";
  private static final String HAS_CONTENT = "SELECT 1 FROM catalog_contents WHERE digest = $1";
  private static final String INSERT_CONTENT =
      "INSERT INTO catalog_contents (digest, media_type, size_bytes, content) "
          + "VALUES ($1, $2, $3, $4) ON CONFLICT (digest) DO NOTHING";
  private static final String INSERT_REVISION =
      "INSERT INTO catalog_revisions (catalog, revision, digest, validation, "
          + "package_count, channel_count, bundle_count, warnings, uploaded_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
  private static final String INSERT_PACKAGES =
      "INSERT INTO catalog_packages "
          + "(catalog, revision, package, default_channel, description, usable, deprecations) "
          + "SELECT $1, $2, x.name, x.default_channel, x.description, x.usable, coalesce(x.deprecations, '[]') "
          + "FROM jsonb_to_recordset($3::jsonb) "
          + "AS x(name text, default_channel text, description text, usable boolean, deprecations jsonb)";
  private static final String INSERT_CHANNELS =
      "INSERT INTO catalog_channels "
          + "(catalog, revision, package, channel, head, entries) "
          + "SELECT $1, $2, x.package, x.name, x.head, x.entries FROM jsonb_to_recordset($3::jsonb) "
          + "AS x(package text, name text, head text, entries jsonb)";
  private static final String INSERT_BUNDLES =
      "INSERT INTO catalog_bundles "
          + "(catalog, revision, package, bundle, version, image, channels, max_openshift_version, embedded, image_digest, "
          + "install_modes) "
          + "SELECT $1, $2, x.package, x.name, x.version, x.image, x.channels, x.max_openshift_version, x.embedded, "
          // a digest-pinned image records its digest now; a tag is resolved once by the pin sweep
          // (BundlePins)
          + "CASE WHEN x.image ~ '@sha256:[0-9a-f]{64}$' THEN right(x.image, 71) END, x.install_modes "
          + "FROM jsonb_to_recordset($3::jsonb) AS x(package text, name text, version text, image text, channels text[], "
          + "max_openshift_version text, embedded boolean, install_modes text[])";
  private static final String SET_CURRENT =
      "UPDATE catalogs SET current_revision = $2, "
          + "resource_version = resource_version + 1, updated_at = now() WHERE name = $1";
  private static final String CONTENT =
      "SELECT media_type, content FROM catalog_contents WHERE digest = $1";

  /** A catalog's lock row: its version and current revision. */
  public record Locked(long resourceVersion, Integer currentRevision) {}

  public Future<Optional<CatalogRecord>> get(SqlClient client, String name) {
    return client
        .preparedQuery(GET)
        .execute(Tuple.of(name))
        .map(rows -> first(rows).map(CatalogRecord::of));
  }

  /** Catalogs ordered by name, after {@code afterName} (null: from the start). */
  public Future<List<CatalogRecord>> list(SqlClient client, String afterName, int limit) {
    return client
        .preparedQuery(LIST)
        .execute(Tuple.of(afterName, limit))
        .map(
            rows -> {
              List<CatalogRecord> out = new ArrayList<>();
              rows.forEach(row -> out.add(CatalogRecord.of(row)));
              return out;
            });
  }

  /** Locks the catalog row for the rest of the transaction; empty when there is no such catalog. */
  public Future<Optional<Locked>> lock(SqlConnection tx, String name) {
    return tx.preparedQuery(LOCK)
        .execute(Tuple.of(name))
        .map(rows -> first(rows).map(row -> new Locked(row.getLong(0), row.getInteger(1))));
  }

  public Future<Void> insert(SqlConnection tx, String name, String displayName, int priority) {
    return tx.preparedQuery(INSERT).execute(Tuple.of(name, displayName, priority)).mapEmpty();
  }

  public Future<Void> update(SqlConnection tx, String name, String displayName, int priority) {
    return tx.preparedQuery(UPDATE).execute(Tuple.of(name, displayName, priority)).mapEmpty();
  }

  /** Up to five subscriptions that use the catalog (for the 409 message). */
  public Future<List<String>> usedBy(SqlClient client, String name) {
    return client
        .preparedQuery(IN_USE)
        .execute(Tuple.of(name))
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(row -> out.add(row.getString(0)));
              return out;
            });
  }

  /**
   * Deletes the catalog, its revisions and index, and content no other catalog's revision shares.
   */
  public Future<Void> delete(SqlConnection tx, String name) {
    return tx.preparedQuery(DIGESTS_OF)
        .execute(Tuple.of(name))
        .compose(
            rows -> {
              List<String> digests = new ArrayList<>();
              rows.forEach(row -> digests.add(row.getString(0)));
              return tx.preparedQuery(DELETE)
                  .execute(Tuple.of(name))
                  .compose(
                      v ->
                          tx.preparedQuery(DELETE_ORPHANS)
                              .execute(
                                  Tuple.tuple().addArrayOfString(digests.toArray(new String[0]))));
            })
        .mapEmpty();
  }

  public Future<Optional<RevisionRecord>> revision(SqlClient client, String catalog, int revision) {
    return client
        .preparedQuery(REVISION)
        .execute(Tuple.of(catalog, revision))
        .map(rows -> first(rows).map(RevisionRecord::of));
  }

  /** Revisions newest first, below {@code beforeRevision} (null: from the newest). */
  public Future<List<RevisionRecord>> revisions(
      SqlClient client, String catalog, Integer beforeRevision, int limit) {
    return client
        .preparedQuery(REVISIONS)
        .execute(Tuple.of(catalog, beforeRevision, limit))
        .map(
            rows -> {
              List<RevisionRecord> out = new ArrayList<>();
              rows.forEach(row -> out.add(RevisionRecord.of(row)));
              return out;
            });
  }

  /**
   * Stores an accepted upload as revision {@code revision} of the (locked) catalog and makes it
   * current: the content once by digest (skipped when already stored), the revision row, the query
   * index.
   */
  public Future<Void> insertRevision(
      SqlConnection tx,
      String catalog,
      int revision,
      IngestResult.Accepted upload,
      String validation,
      JsonArray warnings,
      String uploadedBy) {
    CatalogIndex index = CatalogIndex.of(upload.catalog());
    return tx.preparedQuery(HAS_CONTENT)
        .execute(Tuple.of(upload.digest()))
        .compose(
            rows ->
                rows.size() > 0
                    ? Future.succeededFuture()
                    : tx.preparedQuery(INSERT_CONTENT)
                        .execute(
                            Tuple.of(
                                upload.digest(),
                                upload.format().mediaType(),
                                (long) upload.content().length,
                                Buffer.buffer(upload.content()))))
        .compose(
            v ->
                tx.preparedQuery(INSERT_REVISION)
                    .execute(
                        Tuple.from(
                            List.of(
                                catalog,
                                revision,
                                upload.digest(),
                                validation,
                                upload.catalog().packageCount(),
                                upload.catalog().channelCount(),
                                upload.catalog().bundleCount(),
                                warnings,
                                uploadedBy))))
        .compose(
            v ->
                tx.preparedQuery(INSERT_PACKAGES)
                    .execute(Tuple.of(catalog, revision, packagesJson(index))))
        .compose(
            v ->
                tx.preparedQuery(INSERT_CHANNELS)
                    .execute(Tuple.of(catalog, revision, channelsJson(index))))
        .compose(
            v ->
                tx.preparedQuery(INSERT_BUNDLES)
                    .execute(Tuple.of(catalog, revision, bundlesJson(index))))
        .compose(v -> tx.preparedQuery(SET_CURRENT).execute(Tuple.of(catalog, revision)))
        .mapEmpty();
  }

  /** The stored bytes of a revision and their media type, by digest (what agents download). */
  public Future<Optional<StoredContent>> content(SqlClient client, String digest) {
    return client
        .preparedQuery(CONTENT)
        .execute(Tuple.of(digest))
        .map(
            rows ->
                first(rows)
                    .map(row -> new StoredContent(digest, row.getString(0), row.getBuffer(1))));
  }

  /** Catalog content as stored: exactly the uploaded bytes. */
  public record StoredContent(String digest, String mediaType, Buffer content) {}

  private static JsonArray packagesJson(CatalogIndex index) {
    JsonArray out = new JsonArray();
    index
        .packages()
        .forEach(
            p ->
                out.add(
                    new JsonObject()
                        .put("name", p.name())
                        .put("default_channel", p.defaultChannel())
                        .put("description", p.description())
                        .put("usable", p.usable())
                        .put("deprecations", p.deprecations())));
    return out;
  }

  private static JsonArray channelsJson(CatalogIndex index) {
    JsonArray out = new JsonArray();
    index
        .channels()
        .forEach(
            c ->
                out.add(
                    new JsonObject()
                        .put("package", c.packageName())
                        .put("name", c.name())
                        .put("head", c.head())
                        .put("entries", c.entries())));
    return out;
  }

  private static JsonArray bundlesJson(CatalogIndex index) {
    JsonArray out = new JsonArray();
    index
        .bundles()
        .forEach(
            b ->
                out.add(
                    new JsonObject()
                        .put("package", b.packageName())
                        .put("name", b.name())
                        .put("version", b.version())
                        .put("image", b.image())
                        .put("channels", new JsonArray(new ArrayList<>(b.channels())))
                        .put("max_openshift_version", b.maxOpenShiftVersion())
                        .put("embedded", b.embedded())
                        .put(
                            "install_modes",
                            b.installModes() == null
                                ? null
                                : new JsonArray(new ArrayList<>(b.installModes())))));
    return out;
  }

  static Optional<Row> first(RowSet<Row> rows) {
    var it = rows.iterator();
    return it.hasNext() ? Optional.of(it.next()) : Optional.empty();
  }
}
