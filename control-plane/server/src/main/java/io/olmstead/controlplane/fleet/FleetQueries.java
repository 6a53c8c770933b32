package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.SelectorSql;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard's aggregates, counted in SQL so that no page downloads every cluster: per
 * subscription, clusters by installed version and phase with the latest failures; clusters by the
 * value of one label and connection state. Every query keeps to the caller's teams (clusters by
 * their team label, subscriptions by their team) and to the selector over cluster labels; retired
 * clusters no longer run anything and are left out of the versions.
 */
final class FleetQueries {
  /**
   * At most this many distinct values of a label are counted (the answer says when there were
   * more).
   */
  static final int MAX_LABEL_VALUES = 500;

  private static final String TEAM =
      "($1::text[] IS NULL OR c.labels ->> '" + Principal.TEAM_LABEL + "' = ANY($1::text[]))";
  private static final String SUBSCRIPTIONS =
      "SELECT name, package, team FROM subscriptions "
          + "WHERE ($1::text[] IS NULL OR team = ANY($1::text[])) AND ($2::text IS NULL OR name > $2) "
          + "ORDER BY name LIMIT $3";
  // clusters by version and phase: an index-only scan of subscription_status_versions (V58), joined
  // to the clusters
  // only to keep the caller's teams, the selector and the clusters not retired; no row is
  // materialised
  private static final String COUNTS =
      "SELECT s.subscription, s.installed_version, s.phase, count(*) AS n "
          + "FROM subscription_status s JOIN clusters c ON c.name = s.cluster WHERE NOT s.gone AND c.status <> 'retired' "
          + "AND s.subscription = ANY($2::text[]) AND "
          + TEAM
          + " AND %s GROUP BY 1, 2, 3";
  // the whole fleet seen by an admin without a selector: every status row counted in the index's
  // order (no hash, no
  // join), minus the rows of the few retired clusters (a deleted cluster's rows go with it, V58)
  private static final String COUNTS_ALL =
      "SELECT subscription, installed_version, phase, sum(n)::bigint AS n FROM "
          + "(SELECT s.subscription, s.installed_version, s.phase, count(*) AS n FROM subscription_status s "
          + "WHERE NOT s.gone AND s.subscription = ANY($1::text[]) GROUP BY 1, 2, 3 UNION ALL "
          + "SELECT s.subscription, s.installed_version, s.phase, -count(*) FROM clusters r "
          + "JOIN subscription_status s ON s.cluster = r.name WHERE r.status = 'retired' AND NOT s.gone "
          + "AND s.subscription = ANY($1::text[]) GROUP BY 1, 2, 3) x GROUP BY 1, 2, 3 HAVING sum(n) > 0";
  // the latest failures of each subscription with what the agent said: the failed rows (few)
  // through the partial index
  // subscription_status_failed (V58), newest first
  private static final String FAILURES =
      "SELECT subscription, cluster, installed_version, target_version, reason, "
          + "message, updated_at FROM (SELECT s.subscription, s.cluster, s.installed_version, s.target_version, s.reason, "
          + "s.message, s.updated_at, row_number() OVER (PARTITION BY s.subscription ORDER BY s.updated_at DESC, "
          + "s.cluster) AS rn FROM subscription_status s JOIN clusters c ON c.name = s.cluster "
          + "WHERE s.subscription = ANY($2::text[]) AND s.phase = 'Failed' AND NOT s.gone AND c.status <> 'retired' "
          + "AND "
          + TEAM
          + " AND %s) f WHERE rn <= $3 ORDER BY subscription, rn";
  private static final String BY_LABEL =
      "SELECT c.labels ->> $2::text AS value, c.status, count(*) AS n "
          + "FROM clusters c WHERE "
          + TEAM
          + " AND %s GROUP BY 1, 2 ORDER BY 1 NULLS LAST, 2";

  private FleetQueries() {}

  /** One subscription of a summary page: its name, package and team. */
  record Sub(String name, String pkg, String team) {}

  /**
   * A page of the caller's subscriptions after {@code after} (null: from the first), at most {@code
   * limit} rows.
   */
  static Future<List<Sub>> subscriptions(
      SqlClient client, String[] teams, String after, int limit) {
    return client
        .preparedQuery(SUBSCRIPTIONS)
        .execute(Tuple.of(teams, after, limit))
        .map(
            rows -> {
              List<Sub> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new Sub(
                              r.getString("name"), r.getString("package"), r.getString("team"))));
              return out;
            });
  }

  /** The counts and failures of a summary page's subscriptions, each from its own query. */
  record Found(RowSet<Row> counts, RowSet<Row> failures) {}

  /**
   * Clusters by version and phase of the subscriptions {@code names}, the caller's and the
   * selector's.
   */
  static Future<RowSet<Row>> counts(
      SqlClient client, String[] names, String[] teams, LabelSelector selector) {
    if (teams == null && selector.isEmpty()) {
      return client.preparedQuery(COUNTS_ALL).execute(Tuple.of((Object) names));
    }
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 3);
    List<Object> params = new ArrayList<>(Arrays.asList(teams, names));
    params.addAll(sel.params());
    return client.preparedQuery(String.format(COUNTS, sel.sql())).execute(Tuple.wrap(params));
  }

  /** The first {@code failures} failures of each subscription of {@code names}, newest first. */
  static Future<RowSet<Row>> failures(
      SqlClient client, String[] names, String[] teams, LabelSelector selector, int failures) {
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 4);
    List<Object> params = new ArrayList<>(Arrays.asList(teams, names, failures));
    params.addAll(sel.params());
    return client.preparedQuery(String.format(FAILURES, sel.sql())).execute(Tuple.wrap(params));
  }

  /**
   * Per subscription of {@code subs}, in their order: clusters by version and phase, and the
   * failures found.
   */
  static JsonArray summary(List<Sub> subs, Found found) {
    Map<String, JsonObject> bySub = new LinkedHashMap<>();
    subs.forEach(
        s ->
            bySub.put(
                s.name(),
                new JsonObject()
                    .put("subscription", s.name())
                    .put("package", s.pkg())
                    .put("team", s.team())
                    .put("clusters", 0L)
                    .put("failed", 0L)
                    .put("versions", new JsonArray())
                    .put("failures", new JsonArray())));
    for (Row r : found.failures()) {
      bySub
          .get(r.getString("subscription"))
          .getJsonArray("failures")
          .add(
              new JsonObject()
                  .put("cluster", r.getString("cluster"))
                  .put("installedVersion", r.getString("installed_version"))
                  .put("targetVersion", r.getString("target_version"))
                  .put("reason", r.getString("reason"))
                  .put("message", r.getString("message"))
                  .put("updatedAt", r.getOffsetDateTime("updated_at").toInstant().toString()));
    }
    Map<String, Map<String, JsonObject>> versions = new LinkedHashMap<>();
    for (Row r : found.counts()) {
      JsonObject sub = bySub.get(r.getString("subscription"));
      long n = r.getLong("n");
      String version =
          r.getString("installed_version") == null ? "none" : r.getString("installed_version");
      String phase = r.getString("phase") == null ? "Unknown" : r.getString("phase");
      JsonObject v =
          versions
              .computeIfAbsent(sub.getString("subscription"), k -> new LinkedHashMap<>())
              .computeIfAbsent(
                  version,
                  k ->
                      new JsonObject()
                          .put("version", k)
                          .put("clusters", 0L)
                          .put("phases", new JsonObject()));
      v.put("clusters", v.getLong("clusters") + n);
      v.getJsonObject("phases").put(phase, v.getJsonObject("phases").getLong(phase, 0L) + n);
      sub.put("clusters", sub.getLong("clusters") + n);
      if ("Failed".equals(phase)) {
        sub.put("failed", sub.getLong("failed") + n);
      }
    }
    versions.forEach(
        (name, byVersion) ->
            byVersion.keySet().stream()
                .sorted()
                .forEach(k -> bySub.get(name).getJsonArray("versions").add(byVersion.get(k))));
    return new JsonArray(new ArrayList<>(bySub.values()));
  }

  /**
   * Clusters by the value of {@code label} (absent: null) and status, the values in order, at most
   * 500 of them.
   */
  static Future<JsonObject> byLabel(
      SqlClient client, String label, String[] teams, LabelSelector selector) {
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 3);
    List<Object> params = new ArrayList<>(Arrays.asList(teams, label));
    params.addAll(sel.params());
    return client
        .preparedQuery(String.format(BY_LABEL, sel.sql()))
        .execute(Tuple.wrap(params))
        .map(
            rows -> {
              Map<String, JsonObject> values = new LinkedHashMap<>();
              boolean truncated = false;
              for (Row r : rows) {
                String value = r.getString("value");
                String key = value == null ? "\u0000" : value;
                if (!values.containsKey(key) && values.size() == MAX_LABEL_VALUES) {
                  truncated = true;
                  continue;
                }
                JsonObject item =
                    values.computeIfAbsent(
                        key,
                        k ->
                            new JsonObject()
                                .put("value", value)
                                .put("total", 0L)
                                .put("connected", 0L)
                                .put("disconnected", 0L)
                                .put("pending", 0L)
                                .put("retired", 0L));
                long n = r.getLong("n");
                item.put(r.getString("status"), item.getLong(r.getString("status"), 0L) + n);
                item.put("total", item.getLong("total") + n);
              }
              return new JsonObject()
                  .put("label", label)
                  .put("items", new JsonArray(new ArrayList<>(values.values())))
                  .put("truncated", truncated);
            });
  }
}
