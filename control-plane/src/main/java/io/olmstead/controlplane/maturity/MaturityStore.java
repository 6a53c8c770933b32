package io.olmstead.controlplane.maturity;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for maturity reports: the catalog's current revision, stored reports by content digest, and the content. */
final class MaturityStore {
  private static final String CURRENT = "SELECT r.revision, r.digest, r.validation FROM catalogs c "
      + "JOIN catalog_revisions r ON r.catalog = c.name AND r.revision = c.current_revision WHERE c.name = $1";
  private static final String BUNDLE = "SELECT 1 FROM catalog_bundles "
      + "WHERE catalog = $1 AND revision = $2 AND package = $3 AND bundle = $4";
  private static final String REPORT = "SELECT report FROM bundle_maturity "
      + "WHERE digest = $1 AND package = $2 AND bundle = $3";
  private static final String CONTENT = "SELECT media_type, content FROM catalog_contents WHERE digest = $1";
  private static final String INSERT = "INSERT INTO bundle_maturity (digest, package, bundle, report) "
      + "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";

  /** The current revision of a catalog. */
  record Current(int revision, String digest, String validation) {
  }

  /** Content bytes and their media type. */
  record Content(String mediaType, byte[] bytes) {
  }

  /** Empty when the catalog does not exist or has no revision. */
  Future<Optional<Current>> current(SqlClient c, String catalog) {
    return c.preparedQuery(CURRENT).execute(Tuple.of(catalog)).map(rows -> {
      var it = rows.iterator();
      if (!it.hasNext()) {
        return Optional.empty();
      }
      Row r = it.next();
      return Optional.of(new Current(r.getInteger(0), r.getString(1), r.getString(2)));
    });
  }

  Future<Boolean> bundleExists(SqlClient c, String catalog, int revision, String pkg, String bundle) {
    return c.preparedQuery(BUNDLE).execute(Tuple.of(catalog, revision, pkg, bundle)).map(rows -> rows.size() > 0);
  }

  Future<Optional<JsonObject>> report(SqlClient c, String digest, String pkg, String bundle) {
    return c.preparedQuery(REPORT).execute(Tuple.of(digest, pkg, bundle)).map(rows -> {
      var it = rows.iterator();
      return it.hasNext() ? Optional.of((JsonObject) it.next().getValue(0)) : Optional.empty();
    });
  }

  Future<Optional<Content>> content(SqlClient c, String digest) {
    return c.preparedQuery(CONTENT).execute(Tuple.of(digest)).map(rows -> {
      var it = rows.iterator();
      if (!it.hasNext()) {
        return Optional.empty();
      }
      Row r = it.next();
      return Optional.of(new Content(r.getString(0), r.getBuffer(1).getBytes()));
    });
  }

  /** Stores reports (a concurrent computation of the same digest may have stored them first: kept as they are). */
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
