package io.olmstead.controlplane.maturity;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL for maturity reports: the catalog's current revision, stored reports by content digest, and
 * the content.
 */
final class MaturityStore {
  private static final String CURRENT =
      "SELECT r.revision, r.digest, r.validation FROM catalogs c "
          + "JOIN catalog_revisions r ON r.catalog = c.name AND r.revision = c.current_revision WHERE c.name = $1";
  // the bundle with the digest of its image when that image is unpacked (its objects are then what
  // the rules read)
  private static final String BUNDLE =
      "SELECT i.digest FROM catalog_bundles b "
          + "LEFT JOIN bundle_images i ON i.digest = b.image_digest AND i.state = 'Unpacked' "
          + "WHERE b.catalog = $1 AND b.revision = $2 AND b.package = $3 AND b.bundle = $4";
  private static final String IMAGE_OBJECTS =
      "SELECT objects_gz FROM bundle_images " + "WHERE digest = $1 AND state = 'Unpacked'";
  private static final String CHANNEL_ENTRIES =
      "SELECT entries FROM catalog_channels "
          + "WHERE catalog = $1 AND revision = $2 AND package = $3";
  private static final String UPSERT =
      "INSERT INTO bundle_maturity (digest, package, bundle, report) "
          + "VALUES ($1, $2, $3, $4) ON CONFLICT (digest, package, bundle) DO UPDATE SET report = EXCLUDED.report";
  private static final String REPORT =
      "SELECT report FROM bundle_maturity " + "WHERE digest = $1 AND package = $2 AND bundle = $3";
  private static final String CONTENT =
      "SELECT media_type, content FROM catalog_contents WHERE digest = $1";
  private static final String INSERT =
      "INSERT INTO bundle_maturity (digest, package, bundle, report) "
          + "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";
  private static final String ANY_REPORT =
      "SELECT 1 FROM bundle_maturity WHERE digest = $1 LIMIT 1";
  private static final String PACKAGES =
      "SELECT package FROM catalog_packages WHERE catalog = $1 AND revision = $2 "
          + "AND ($3::text IS NULL OR package > $3) ORDER BY package LIMIT $4";
  // the head of every channel with its stored report (null until the content's reports are
  // computed)
  private static final String HEADS =
      "SELECT ch.package, ch.channel, ch.head, m.report, i.digest "
          + "FROM catalog_channels ch "
          + "LEFT JOIN bundle_maturity m ON m.digest = $3 AND m.package = ch.package AND m.bundle = ch.head "
          + "LEFT JOIN catalog_bundles b ON b.catalog = ch.catalog AND b.revision = ch.revision "
          + "AND b.package = ch.package AND b.bundle = ch.head "
          + "LEFT JOIN bundle_images i ON i.digest = b.image_digest AND i.state = 'Unpacked' "
          + "WHERE ch.catalog = $1 AND ch.revision = $2 AND ch.package = ANY($4) ORDER BY ch.package, ch.channel";

  /** The current revision of a catalog. */
  record Current(int revision, String digest, String validation) {}

  /** Content bytes and their media type. */
  record Content(String mediaType, byte[] bytes) {}

  /** Empty when the catalog does not exist or has no revision. */
  Future<Optional<Current>> current(SqlClient c, String catalog) {
    return c.preparedQuery(CURRENT)
        .execute(Tuple.of(catalog))
        .map(
            rows -> {
              var it = rows.iterator();
              if (!it.hasNext()) {
                return Optional.empty();
              }
              Row r = it.next();
              return Optional.of(new Current(r.getInteger(0), r.getString(1), r.getString(2)));
            });
  }

  /**
   * A bundle of a revision: whether it exists, and the digest of its image when that is unpacked.
   */
  record BundleRow(boolean exists, String unpackedImage) {}

  Future<BundleRow> bundle(SqlClient c, String catalog, int revision, String pkg, String bundle) {
    return c.preparedQuery(BUNDLE)
        .execute(Tuple.of(catalog, revision, pkg, bundle))
        .map(
            rows -> {
              var it = rows.iterator();
              return it.hasNext()
                  ? new BundleRow(true, it.next().getString(0))
                  : new BundleRow(false, null);
            });
  }

  Future<byte[]> imageObjects(SqlClient c, String imageDigest) {
    return c.preparedQuery(IMAGE_OBJECTS)
        .execute(Tuple.of(imageDigest))
        .map(
            rows -> {
              var it = rows.iterator();
              if (!it.hasNext()) {
                throw new IllegalStateException("bundle image " + imageDigest + " is not unpacked");
              }
              return it.next().getBuffer(0).getBytes();
            });
  }

  /** Each channel of the package as {@code {entries: [...]}}. */
  Future<List<JsonObject>> channelEntries(SqlClient c, String catalog, int revision, String pkg) {
    return c.preparedQuery(CHANNEL_ENTRIES)
        .execute(Tuple.of(catalog, revision, pkg))
        .map(
            rows -> {
              List<JsonObject> out = new ArrayList<>();
              rows.forEach(r -> out.add(new JsonObject().put("entries", r.getValue(0))));
              return out;
            });
  }

  /**
   * Stores a report in place of the one of the same key (an image report replacing a catalog one).
   */
  Future<Void> upsert(SqlClient c, String digest, JsonObject report) {
    return c.preparedQuery(UPSERT)
        .execute(Tuple.of(digest, report.getString("package"), report.getString("bundle"), report))
        .mapEmpty();
  }

  Future<Optional<JsonObject>> report(SqlClient c, String digest, String pkg, String bundle) {
    return c.preparedQuery(REPORT)
        .execute(Tuple.of(digest, pkg, bundle))
        .map(
            rows -> {
              var it = rows.iterator();
              return it.hasNext()
                  ? Optional.of((JsonObject) it.next().getValue(0))
                  : Optional.empty();
            });
  }

  Future<Optional<Content>> content(SqlClient c, String digest) {
    return c.preparedQuery(CONTENT)
        .execute(Tuple.of(digest))
        .map(
            rows -> {
              var it = rows.iterator();
              if (!it.hasNext()) {
                return Optional.empty();
              }
              Row r = it.next();
              return Optional.of(new Content(r.getString(0), r.getBuffer(1).getBytes()));
            });
  }

  /**
   * Whether the reports of a content digest are stored (all of a digest are stored in one
   * transaction).
   */
  Future<Boolean> hasReports(SqlClient c, String digest) {
    return c.preparedQuery(ANY_REPORT).execute(Tuple.of(digest)).map(rows -> rows.size() > 0);
  }

  /** Package names of a revision ordered by name, after {@code after} (null: from the first). */
  Future<List<String>> packages(
      SqlClient c, String catalog, int revision, String after, int limit) {
    return c.preparedQuery(PACKAGES)
        .execute(Tuple.of(catalog, revision, after, limit))
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString(0)));
              return out;
            });
  }

  /** The channels of those packages with their heads' reports. */
  Future<List<MaturitySummary.Head>> heads(
      SqlClient c, String catalog, Current cur, List<String> packages) {
    Tuple args =
        Tuple.of(catalog, cur.revision(), cur.digest())
            .addArrayOfString(packages.toArray(new String[0]));
    return c.preparedQuery(HEADS)
        .execute(args)
        .map(
            rows -> {
              List<MaturitySummary.Head> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new MaturitySummary.Head(
                              r.getString(0),
                              r.getString(1),
                              r.getString(2),
                              (JsonObject) r.getValue(3),
                              r.getString(4))));
              return out;
            });
  }

  /**
   * Stores reports (a concurrent computation of the same digest may have stored them first: kept as
   * they are).
   */
  Future<Void> insert(SqlClient c, String digest, List<JsonObject> reports) {
    if (reports.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Tuple> batch = new ArrayList<>(reports.size());
    for (JsonObject r : reports) {
      batch.add(Tuple.of(digest, r.getString("package"), r.getString("bundle"), r));
    }
    return c.preparedQuery(INSERT).executeBatch(batch).mapEmpty();
  }
}
