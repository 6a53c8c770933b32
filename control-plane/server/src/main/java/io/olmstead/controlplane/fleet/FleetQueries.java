package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.SelectorSql;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard's aggregates, counted in SQL so that no page downloads every cluster: per subscription, clusters by
 * installed version and phase with the latest failures; clusters by the value of one label and connection state.
 * Every query keeps to the caller's teams (clusters by their team label, subscriptions by their team) and to the
 * selector over cluster labels; retired clusters no longer run anything and are left out of the versions.
 */
final class FleetQueries {
  /** At most this many distinct values of a label are counted (the answer says when there were more). */
  static final int MAX_LABEL_VALUES = 500;
  private static final String TEAM = "($1::text[] IS NULL OR c.labels ->> '" + Principal.TEAM_LABEL
      + "' = ANY($1::text[]))";
  private static final String SUBSCRIPTIONS = "SELECT name, package, team FROM subscriptions "
      + "WHERE ($1::text[] IS NULL OR team = ANY($1::text[])) AND ($2::text IS NULL OR name > $2) "
      + "ORDER BY name LIMIT $3";
  // one statement, one pass over the page's status rows: the counts by version and phase (kind 'c'), then the latest
  // failures of each subscription with what the agent said (kind 'f')
  private static final String SUMMARY = "WITH st AS MATERIALIZED (SELECT s.subscription, s.cluster, s.installed_version, "
      + "s.target_version, s.phase, s.reason, s.message, s.updated_at FROM subscription_status s "
      + "JOIN clusters c ON c.name = s.cluster WHERE NOT s.gone AND c.status <> 'retired' "
      + "AND s.subscription = ANY($2::text[]) AND " + TEAM + " AND %s) "
      + "SELECT 'c' AS kind, subscription, installed_version, phase, count(*) AS n, NULL AS cluster, "
      + "NULL AS target_version, NULL AS reason, NULL AS message, NULL::timestamptz AS updated_at, 0::bigint AS rn "
      + "FROM st GROUP BY subscription, installed_version, phase UNION ALL "
      + "SELECT 'f', subscription, installed_version, phase, 1, cluster, target_version, reason, message, updated_at, rn "
      + "FROM (SELECT st.*, row_number() OVER (PARTITION BY subscription ORDER BY updated_at DESC, cluster) AS rn "
      + "FROM st WHERE phase = 'Failed') f WHERE rn <= $3 ORDER BY kind, subscription, rn";
  private static final String BY_LABEL = "SELECT c.labels ->> $2::text AS value, c.status, count(*) AS n "
      + "FROM clusters c WHERE " + TEAM + " AND %s GROUP BY 1, 2 ORDER BY 1 NULLS LAST, 2";

  private FleetQueries() {
  }

  /** One subscription of a summary page: its name, package and team. */
  record Sub(String name, String pkg, String team) {
  }

  /** A page of the caller's subscriptions after {@code after} (null: from the first), at most {@code limit} rows. */
  static Future<List<Sub>> subscriptions(SqlClient client, String[] teams, String after, int limit) {
    return client.preparedQuery(SUBSCRIPTIONS).execute(Tuple.of(teams, after, limit)).map(rows -> {
      List<Sub> out = new ArrayList<>();
      rows.forEach(r -> out.add(new Sub(r.getString("name"), r.getString("package"), r.getString("team"))));
      return out;
    });
  }

  /** Per subscription of {@code subs}: clusters by version and phase, and the first {@code failures} failures. */
  static Future<JsonArray> summary(SqlClient client, List<Sub> subs, String[] teams, LabelSelector selector,
      int failures) {
    String[] names = subs.stream().map(Sub::name).toArray(String[]::new);
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 4);
    List<Object> params = new ArrayList<>(java.util.Arrays.asList(new Object[] {teams, names, failures}));
    params.addAll(sel.params());
    Map<String, JsonObject> bySub = new LinkedHashMap<>();
    subs.forEach(s -> bySub.put(s.name(), new JsonObject().put("subscription", s.name()).put("package", s.pkg())
        .put("team", s.team()).put("clusters", 0L).put("failed", 0L).put("versions", new JsonArray())
        .put("failures", new JsonArray())));
    return client.preparedQuery(String.format(SUMMARY, sel.sql())).execute(Tuple.wrap(params)).map(rows -> {
      Map<String, Map<String, JsonObject>> versions = new LinkedHashMap<>();
      for (Row r : rows) {
        JsonObject sub = bySub.get(r.getString("subscription"));
        if ("f".equals(r.getString("kind"))) {
          sub.getJsonArray("failures").add(new JsonObject()
              .put("cluster", r.getString("cluster")).put("installedVersion", r.getString("installed_version"))
              .put("targetVersion", r.getString("target_version")).put("reason", r.getString("reason"))
              .put("message", r.getString("message"))
              .put("updatedAt", r.getOffsetDateTime("updated_at").toInstant().toString()));
          continue;
        }
        long n = r.getLong("n");
        String version = r.getString("installed_version") == null ? "none" : r.getString("installed_version");
        String phase = r.getString("phase") == null ? "Unknown" : r.getString("phase");
        JsonObject v = versions.computeIfAbsent(sub.getString("subscription"), k -> new LinkedHashMap<>())
            .computeIfAbsent(version, k -> new JsonObject().put("version", k).put("clusters", 0L)
                .put("phases", new JsonObject()));
        v.put("clusters", v.getLong("clusters") + n);
        v.getJsonObject("phases").put(phase, v.getJsonObject("phases").getLong(phase, 0L) + n);
        sub.put("clusters", sub.getLong("clusters") + n);
        if ("Failed".equals(phase)) {
          sub.put("failed", sub.getLong("failed") + n);
        }
      }
      versions.forEach((name, byVersion) -> byVersion.keySet().stream().sorted()
          .forEach(k -> bySub.get(name).getJsonArray("versions").add(byVersion.get(k))));
      return new JsonArray(new ArrayList<>(bySub.values()));
    });
  }

  /** Clusters by the value of {@code label} (absent: null) and status, the values in order, at most 500 of them. */
  static Future<JsonObject> byLabel(SqlClient client, String label, String[] teams, LabelSelector selector) {
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 3);
    List<Object> params = new ArrayList<>(java.util.Arrays.asList(new Object[] {teams, label}));
    params.addAll(sel.params());
    return client.preparedQuery(String.format(BY_LABEL, sel.sql())).execute(Tuple.wrap(params)).map(rows -> {
      Map<String, JsonObject> values = new LinkedHashMap<>();
      boolean truncated = false;
      for (Row r : rows) {
        String value = r.getString("value");
        String key = value == null ? "\u0000" : value;
        if (!values.containsKey(key) && values.size() == MAX_LABEL_VALUES) {
          truncated = true;
          continue;
        }
        JsonObject item = values.computeIfAbsent(key, k -> new JsonObject().put("value", value).put("total", 0L)
            .put("connected", 0L).put("disconnected", 0L).put("pending", 0L).put("retired", 0L));
        long n = r.getLong("n");
        item.put(r.getString("status"), item.getLong(r.getString("status"), 0L) + n);
        item.put("total", item.getLong("total") + n);
      }
      return new JsonObject().put("label", label).put("items", new JsonArray(new ArrayList<>(values.values())))
          .put("truncated", truncated);
    });
  }
}
