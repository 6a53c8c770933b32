package io.olmstead.controlplane.upgradereadiness;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Candidate;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadiness.Installed;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What upgrade readiness reads: clusters with their versions, the operators they run, and newer
 * bundles.
 */
public final class UpgradeReadinessStore {
  /** A cluster: its name, labels and facts. */
  record ClusterRow(String name, JsonObject labels, JsonObject facts) {}

  private static final String CLUSTERS =
      "SELECT name, labels, facts FROM clusters WHERE status <> 'retired'"
          + " AND ($1::text[] IS NULL OR labels ->> '"
          + Principal.TEAM_LABEL
          + "' = ANY($1)) ORDER BY name";
  // the installed bundle's maximum from the newest revision of its catalog that lists it
  private static final String INSTALLED =
      "SELECT st.cluster, st.subscription, s.namespace, s.catalog, s.package,"
          + " s.team, st.installed_bundle, st.installed_version, (SELECT b.max_openshift_version FROM catalog_bundles b"
          + " WHERE b.catalog = s.catalog AND b.package = s.package AND b.bundle = st.installed_bundle"
          + " ORDER BY b.revision DESC LIMIT 1) AS max_openshift_version"
          + " FROM subscription_status st JOIN subscriptions s ON s.name = st.subscription"
          + " WHERE st.cluster = ANY($1::text[]) AND NOT st.gone AND st.installed_bundle IS NOT NULL";
  private static final String CANDIDATES =
      "SELECT b.catalog, b.package, b.bundle, b.version, b.max_openshift_version"
          + " FROM catalog_bundles b JOIN catalogs c ON c.name = b.catalog AND c.current_revision = b.revision"
          + " WHERE b.catalog = ANY($1::text[]) AND b.catalog || '/' || b.package = ANY($2::text[])";

  Future<List<ClusterRow>> clusters(SqlClient client, Principal caller) {
    return client
        .preparedQuery(CLUSTERS)
        .execute(Tuple.of(caller.teamFilter()))
        .map(
            rows -> {
              List<ClusterRow> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new ClusterRow(
                              r.getString("name"),
                              json(r.getValue("labels")),
                              json(r.getValue("facts")))));
              return out;
            });
  }

  /** The operators one cluster runs, every one visible (for the control plane's own checks). */
  public Future<List<Installed>> installedOn(SqlClient client, String cluster) {
    return installed(client, List.of(cluster), team -> true)
        .map(all -> all.getOrDefault(cluster, List.of()));
  }

  /**
   * The operators each named cluster runs; {@code visible} says whether the caller may see the
   * subscription.
   */
  Future<Map<String, List<Installed>>> installed(
      SqlClient client, List<String> clusters, Principal caller) {
    return installed(client, clusters, caller::mayAccessTeam);
  }

  private Future<Map<String, List<Installed>>> installed(
      SqlClient client, List<String> clusters, Predicate<String> visibleTeam) {
    return client
        .preparedQuery(INSTALLED)
        .execute(Tuple.of(clusters.toArray(new String[0])))
        .map(
            rows -> {
              Map<String, List<Installed>> out = new HashMap<>();
              for (Row r : rows) {
                out.computeIfAbsent(r.getString("cluster"), k -> new ArrayList<>())
                    .add(
                        new Installed(
                            r.getString("subscription"),
                            r.getString("namespace"),
                            r.getString("catalog"),
                            r.getString("package"),
                            r.getString("installed_bundle"),
                            r.getString("installed_version"),
                            r.getString("max_openshift_version"),
                            visibleTeam.test(r.getString("team"))));
              }
              return out;
            });
  }

  /**
   * The bundles of the current revisions of the catalogs and packages these operators come from.
   */
  Future<Map<String, List<Candidate>>> candidates(
      SqlClient client, Iterable<List<Installed>> installed) {
    Set<String> catalogs = new LinkedHashSet<>();
    Set<String> keys = new LinkedHashSet<>();
    installed.forEach(
        ops ->
            ops.forEach(
                op -> {
                  catalogs.add(op.catalog());
                  keys.add(UpgradeReadiness.key(op.catalog(), op.packageName()));
                }));
    if (keys.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return client
        .preparedQuery(CANDIDATES)
        .execute(
            Tuple.tuple()
                .addArrayOfString(catalogs.toArray(new String[0]))
                .addArrayOfString(keys.toArray(new String[0])))
        .map(
            rows -> {
              Map<String, List<Candidate>> out = new HashMap<>();
              for (Row r : rows) {
                out.computeIfAbsent(
                        UpgradeReadiness.key(r.getString("catalog"), r.getString("package")),
                        k -> new ArrayList<>())
                    .add(
                        new Candidate(
                            r.getString("bundle"),
                            r.getString("version"),
                            r.getString("max_openshift_version")));
              }
              return out;
            });
  }

  private static JsonObject json(Object value) {
    if (value instanceof JsonObject o) {
      return o;
    }
    return value instanceof String s ? new JsonObject(s) : new JsonObject();
  }
}
