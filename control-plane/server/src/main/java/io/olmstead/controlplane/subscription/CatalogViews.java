package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Loads {@link CatalogView}s of catalogs' current revisions from the query index: for desired-state
 * computation (every package some subscription uses) and for validating one subscription.
 */
public final class CatalogViews {
  private static final String BASE =
      "SELECT c.name, r.digest, p.package, p.default_channel, ch.channel, ch.head, "
          + "b.bundle, b.version FROM catalogs c "
          + "JOIN catalog_revisions r ON r.catalog = c.name AND r.revision = c.current_revision "
          + "JOIN catalog_packages p ON p.catalog = c.name AND p.revision = c.current_revision "
          + "LEFT JOIN catalog_channels ch ON ch.catalog = p.catalog AND ch.revision = p.revision AND ch.package = p.package "
          + "LEFT JOIN catalog_bundles b ON b.catalog = ch.catalog AND b.revision = ch.revision "
          + "AND b.package = ch.package AND ch.channel = ANY(b.channels) ";
  private static final String USED =
      BASE
          + "WHERE EXISTS (SELECT 1 FROM subscriptions s WHERE s.catalog = c.name AND s.package = p.package)";
  private static final String ONE = BASE + "WHERE c.name = $1 AND p.package = $2";
  private static final String DIGEST =
      "SELECT r.digest FROM catalogs c JOIN catalog_revisions r "
          + "ON r.catalog = c.name AND r.revision = c.current_revision WHERE c.name = $1";

  private CatalogViews() {}

  /**
   * Views of every catalog with a revision, holding the packages some subscription uses (by catalog
   * name).
   */
  public static Future<Map<String, CatalogView>> forSubscriptions(SqlClient client) {
    return client.query(USED).execute().map(CatalogViews::build);
  }

  /**
   * The view of one catalog holding at most the one package; empty when the catalog has no
   * revision. A catalog without that package gives a view without packages.
   */
  public static Future<Optional<CatalogView>> forPackage(
      SqlClient client, String catalog, String packageName) {
    return client
        .preparedQuery(ONE)
        .execute(Tuple.of(catalog, packageName))
        .compose(
            rows -> {
              Map<String, CatalogView> views = build(rows);
              if (views.containsKey(catalog)) {
                return Future.succeededFuture(Optional.of(views.get(catalog)));
              }
              return client
                  .preparedQuery(DIGEST)
                  .execute(Tuple.of(catalog))
                  .map(
                      digestRows -> {
                        var it = digestRows.iterator();
                        return it.hasNext()
                            ? Optional.of(
                                new CatalogView(catalog, it.next().getString(0), Map.of()))
                            : Optional.<CatalogView>empty();
                      });
            });
  }

  private static Map<String, CatalogView> build(RowSet<Row> rows) {
    Map<String, String> digests = new HashMap<>();
    Map<String, Map<String, String>> defaults = new HashMap<>();
    Map<String, Map<String, Map<String, String>>> heads = new HashMap<>();
    Map<String, Map<String, Map<String, Map<String, Version>>>> versions = new HashMap<>();
    for (Row row : rows) {
      String catalog = row.getString(0);
      String pkg = row.getString(2);
      String channel = row.getString(4);
      digests.put(catalog, row.getString(1));
      defaults.computeIfAbsent(catalog, k -> new HashMap<>()).put(pkg, row.getString(3));
      Map<String, Map<String, Version>> channels =
          versions
              .computeIfAbsent(catalog, k -> new HashMap<>())
              .computeIfAbsent(pkg, k -> new HashMap<>());
      if (channel == null) {
        continue;
      }
      heads
          .computeIfAbsent(catalog, k -> new HashMap<>())
          .computeIfAbsent(pkg, k -> new HashMap<>())
          .put(channel, row.getString(5));
      Map<String, Version> bundleVersions = channels.computeIfAbsent(channel, k -> new HashMap<>());
      String bundle = row.getString(6);
      if (bundle != null) {
        Version.tryParse(row.getString(7)).ifPresent(v -> bundleVersions.put(bundle, v));
      }
    }
    Map<String, CatalogView> out = new HashMap<>();
    digests.forEach(
        (catalog, digest) -> {
          Map<String, PackageView> packages = new HashMap<>();
          versions
              .get(catalog)
              .forEach(
                  (pkg, channels) -> {
                    Map<String, ChannelView> views = new HashMap<>();
                    channels.forEach(
                        (channel, bundleVersions) ->
                            views.put(
                                channel,
                                new ChannelView(
                                    channel,
                                    heads.get(catalog).get(pkg).get(channel),
                                    bundleVersions)));
                    packages.put(pkg, new PackageView(pkg, defaults.get(catalog).get(pkg), views));
                  });
          out.put(catalog, new CatalogView(catalog, digest, packages));
        });
    return out;
  }
}
