package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.maturity.MaturityService;
import io.olmstead.controlplane.subscription.CatalogView.ChannelView;
import io.olmstead.controlplane.subscription.CatalogView.PackageView;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the stored maturity reports {@link MaturityHold} decides on (I/O): every bundle of the
 * packages some subscription uses, in each catalog's current revision. A catalog revision's reports
 * are computed on first use (once per content digest, {@link MaturityService}); one that cannot be
 * had (its content carries no objects, or it failed to parse) leaves those bundles unchecked, as at
 * {@code PUT}.
 */
public final class HoldReports {
  private static final Logger LOG = LoggerFactory.getLogger(HoldReports.class);
  // only what a hold decides on (rule, severity, removedIn; the message of removed-api findings,
  // which the status
  // lists), each distinct finding once: the snapshot holds every bundle of every package
  // subscriptions use
  private static final String REPORTS =
      "SELECT package, bundle, jsonb_build_object('bundle', report->'bundle', "
          + "'evidencedCapability', report->'evidencedCapability', 'findings', coalesce((SELECT jsonb_agg(DISTINCT "
          + "jsonb_strip_nulls(jsonb_build_object('rule', f->'rule', 'severity', f->'severity', 'removedIn', "
          + "f->'removedIn', 'message', CASE WHEN f->>'rule' = 'portability/removed-api' THEN f->'message' END))) "
          + "FROM jsonb_array_elements(report->'findings') f), '[]'::jsonb)) AS report FROM bundle_maturity "
          + "WHERE digest = $1 AND package = ANY($2)";

  private final MaturityService maturity;

  public HoldReports(MaturityService maturity) {
    this.maturity = maturity;
  }

  /** The reports of the packages {@code subscriptions} use, as {@link DesiredState.Reports}. */
  public Future<DesiredState.Reports> load(
      SqlClient client, Collection<Subscription> subscriptions, Map<String, CatalogView> catalogs) {
    // catalog -> package -> a bundle of it (asking for one report computes the whole revision's)
    Map<String, Map<String, String>> used = new TreeMap<>();
    for (Subscription s : subscriptions) {
      CatalogView view = catalogs.get(s.spec().catalog());
      Optional<String> bundle =
          Optional.ofNullable(view)
              .flatMap(v -> v.pkg(s.spec().packageName()))
              .flatMap(HoldReports::anyBundle);
      bundle.ifPresent(
          b ->
              used.computeIfAbsent(view.name(), k -> new TreeMap<>())
                  .put(s.spec().packageName(), b));
    }
    Map<String, JsonObject> out = new HashMap<>();
    Future<Void> chain = Future.succeededFuture();
    for (Map.Entry<String, Map<String, String>> c : used.entrySet()) {
      CatalogView view = catalogs.get(c.getKey());
      Map.Entry<String, String> first = c.getValue().entrySet().iterator().next();
      chain =
          chain.compose(
              v ->
                  maturity
                      .stored(view.name(), first.getKey(), first.getValue())
                      .compose(
                          computed ->
                              client
                                  .preparedQuery(REPORTS)
                                  .execute(
                                      Tuple.tuple()
                                          .addString(view.digest())
                                          .addArrayOfString(
                                              c.getValue().keySet().toArray(String[]::new))))
                      .map(
                          rows -> {
                            for (Row r : rows) {
                              out.put(
                                  key(view.name(), r.getString("package"), r.getString("bundle")),
                                  r.getJsonObject("report"));
                            }
                            return (Void) null;
                          })
                      .recover(
                          e -> {
                            LOG.warn(
                                "no maturity holds for catalog {} (its reports cannot be read): {}",
                                view.name(),
                                e.toString());
                            return Future.succeededFuture();
                          }));
    }
    return chain.map(v -> (catalog, pkg, bundle) -> out.get(key(catalog, pkg, bundle)));
  }

  private static Optional<String> anyBundle(PackageView pkg) {
    TreeSet<String> bundles = new TreeSet<>();
    for (ChannelView ch : pkg.channels().values()) {
      bundles.addAll(ch.bundleVersions().keySet());
    }
    return bundles.isEmpty() ? Optional.empty() : Optional.of(bundles.first());
  }

  private static String key(String catalog, String pkg, String bundle) {
    return catalog + '\u0000' + pkg + '\u0000' + bundle;
  }
}
