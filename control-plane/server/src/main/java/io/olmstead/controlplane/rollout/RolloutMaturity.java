package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.maturity.MaturityService;
import io.olmstead.controlplane.subscription.SubscriptionSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane's part of a cluster's preflight (I/O; the rules are {@link MaturityChecks}'):
 * the target bundle's stored maturity report against the subscription's {@code
 * requirements.maturity} (a finding for every cluster) and its {@code portability/removed-api}
 * findings against the Kubernetes version each cluster reports.
 */
final class RolloutMaturity {
  private static final Logger LOG = LoggerFactory.getLogger(RolloutMaturity.class);
  private static final String BUNDLE =
      "SELECT b.bundle FROM catalogs c JOIN catalog_bundles b ON b.catalog = c.name "
          + "AND b.revision = c.current_revision WHERE c.name = $1 AND b.package = $2 AND b.version = $3 "
          + "ORDER BY b.bundle LIMIT 1";
  private static final String KUBE =
      "SELECT name, kubernetes_version FROM clusters WHERE name = ANY($1)";

  private final MaturityService maturity;

  RolloutMaturity(MaturityService maturity) {
    this.maturity = maturity;
  }

  MaturityService service() {
    return maturity;
  }

  /**
   * The bundle of {@code version} in the subscription's package (the catalog's current revision).
   */
  Future<Optional<String>> bundle(SqlClient client, SubscriptionSpec spec, String version) {
    return client
        .preparedQuery(BUNDLE)
        .execute(Tuple.of(spec.catalog(), spec.packageName(), version))
        .map(
            rows ->
                rows.size() == 0
                    ? Optional.<String>empty()
                    : Optional.of(rows.iterator().next().getString(0)));
  }

  /**
   * The control plane's findings for each of {@code clusters} about {@code version}: empty lists
   * when the report cannot be had (a catalog whose content carries no objects for it), which the
   * agents' check then stands alone for.
   */
  Future<Map<String, JsonArray>> findings(
      SqlClient client, SubscriptionSpec spec, String version, Collection<String> clusters) {
    if (clusters.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return bundle(client, spec, version)
        .compose(
            bundle ->
                bundle.isEmpty()
                    ? Future.succeededFuture(Map.<String, JsonArray>of())
                    : maturity
                        .stored(spec.catalog(), spec.packageName(), bundle.get())
                        .compose(
                            report ->
                                client
                                    .preparedQuery(KUBE)
                                    .execute(Tuple.of(clusters.toArray(String[]::new)))
                                    .map(
                                        rows -> {
                                          Map<String, String> kube = new HashMap<>();
                                          for (Row r : rows) {
                                            kube.put(
                                                r.getString("name"),
                                                r.getString("kubernetes_version"));
                                          }
                                          return MaturityChecks.perCluster(
                                              spec.requirements(), report, kube, clusters);
                                        })))
        .recover(
            e -> {
              LOG.debug("no maturity checks for {} {}: {}", spec.name(), version, e.toString());
              return Future.succeededFuture(Map.<String, JsonArray>of());
            });
  }
}
