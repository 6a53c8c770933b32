package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.fleet.MatrixSort.Key;
import io.olmstead.controlplane.rollout.MatrixReasons.Cell;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.SelectorSql;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet matrix in SQL: the columns (the caller's subscriptions), one keyset page of rows (the
 * caller's clusters the selector picks, retired ones left out, in the sort's order) and the page's
 * cells (one index probe per cluster and column on {@code subscription_status}'s primary key).
 */
final class MatrixQueries {
  /** At most this many subscriptions are columns of one matrix. */
  static final int MAX_COLUMNS = 20;

  private static final String TEAM =
      "($1::text[] IS NULL OR c.labels ->> '" + Principal.TEAM_LABEL + "' = ANY($1::text[]))";
  private static final String COLUMNS =
      "SELECT name, package, team FROM subscriptions "
          + "WHERE ($1::text[] IS NULL OR team = ANY($1::text[])) AND ($2::text[] IS NULL OR name = ANY($2::text[])) "
          + "ORDER BY name LIMIT "
          + MAX_COLUMNS;
  private static final String BY_NAME =
      "SELECT c.name, c.status, c.labels, c.last_seen FROM clusters c "
          + "WHERE c.status <> 'retired' AND "
          + TEAM
          + " AND ($2::text IS NULL OR c.name %s $2) AND %s "
          + "ORDER BY c.name %s LIMIT $3";
  // the first three dot-separated parts of a version (without a leading v, a pre-release or a build
  // suffix) padded to
  // compare as numbers (1.10 after 1.9), then the whole version as text; not installed yet after
  // every version
  private static final String CORE =
      "split_part(split_part(ltrim(s.installed_version, 'v'), '-', 1), '+', 1)";
  private static final String PART = "lpad(split_part(" + CORE + ", '.', %d), 12, '0')";
  static final String VERSION_KEY =
      "(CASE WHEN s.cluster IS NULL THEN '' WHEN s.installed_version IS NULL THEN '~' "
          + "ELSE "
          + String.format(PART, 1)
          + " || '.' || "
          + String.format(PART, 2)
          + " || '.' || "
          + String.format(PART, 3)
          + " || '~' || s.installed_version END) COLLATE \"C\"";
  private static final String PHASE_KEY = "coalesce(s.phase, '') COLLATE \"C\"";
  private static final String BY_COLUMN =
      "SELECT c.name, c.status, c.labels, c.last_seen, s.cluster IS NULL AS k1, "
          + "%1$s AS k2 FROM clusters c LEFT JOIN subscription_status s ON s.subscription = $4 AND s.cluster = c.name "
          + "AND NOT s.gone WHERE c.status <> 'retired' AND "
          + TEAM
          + " AND ($2::text IS NULL "
          + "OR (s.cluster IS NULL) > $5::boolean OR ((s.cluster IS NULL) = $5::boolean AND (%1$s, c.name) %2$s "
          + "($6::text, $2::text))) AND %3$s ORDER BY k1, k2 %4$s, c.name %4$s LIMIT $3";
  static final String CELLS =
      "SELECT s.cluster, s.subscription, s.installed_version, s.target_version, "
          + "s.phase, s.reason, s.message, s.updated_at, (SELECT e ->> 'message' FROM jsonb_array_elements(s.conditions) e "
          + "WHERE e ->> 'type' = 'RequiresApproval' LIMIT 1) AS waiting_for FROM subscription_status s "
          + "WHERE s.subscription = ANY($1) AND s.cluster = ANY($2) AND NOT s.gone";

  private MatrixQueries() {}

  /** One column: a subscription. */
  record Column(String name, String pkg, String team) {
    JsonObject toJson() {
      return new JsonObject().put("name", name).put("package", pkg).put("team", team);
    }
  }

  /**
   * One row: a cluster, and its sort key when ordered by a column ({@code missing}, {@code value};
   * else null).
   */
  record ClusterRow(
      String name,
      String status,
      JsonObject labels,
      OffsetDateTime lastSeen,
      Boolean missing,
      String value) {
    JsonArray cursor() {
      return missing == null
          ? new JsonArray().add(name)
          : new JsonArray().add(missing).add(value).add(name);
    }
  }

  /** The caller's subscriptions named in {@code names} (null: the first 20 by name). */
  static Future<List<Column>> columns(SqlClient client, String[] teams, String[] names) {
    return client
        .preparedQuery(COLUMNS)
        .execute(Tuple.of((Object) teams, (Object) names))
        .map(
            rows -> {
              List<Column> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new Column(
                              r.getString("name"), r.getString("package"), r.getString("team"))));
              return out;
            });
  }

  /**
   * At most {@code limit} rows after {@code after} (a cursor's key, null: from the first) in {@code
   * sort}'s order.
   */
  static Future<List<ClusterRow>> rows(
      SqlClient client,
      String[] teams,
      LabelSelector selector,
      MatrixSort sort,
      JsonArray after,
      int limit) {
    String dir = sort.descending() ? "DESC" : "ASC";
    String op = sort.descending() ? "<" : ">";
    List<Object> params =
        new ArrayList<>(
            Arrays.asList(teams, after == null ? null : after.getString(after.size() - 1), limit));
    String sql;
    if (sort.key() == Key.name) {
      SelectorSql sel = SelectorSql.of(selector, "c.labels", 4);
      sql = String.format(BY_NAME, op, sel.sql(), dir);
      params.addAll(sel.params());
    } else {
      SelectorSql sel = SelectorSql.of(selector, "c.labels", 7);
      sql =
          String.format(
              BY_COLUMN, sort.key() == Key.version ? VERSION_KEY : PHASE_KEY, op, sel.sql(), dir);
      params.add(sort.subscription());
      params.add(after == null ? null : after.getBoolean(0));
      params.add(after == null ? null : after.getString(1));
      params.addAll(sel.params());
    }
    boolean byColumn = sort.key() != Key.name;
    return client
        .preparedQuery(sql)
        .execute(Tuple.wrap(params))
        .map(
            rows -> {
              List<ClusterRow> out = new ArrayList<>();
              for (Row r : rows) {
                out.add(
                    new ClusterRow(
                        r.getString("name"),
                        r.getString("status"),
                        r.getJsonObject("labels"),
                        r.getOffsetDateTime("last_seen"),
                        byColumn ? r.getBoolean("k1") : null,
                        byColumn ? r.getString("k2") : null));
              }
              return out;
            });
  }

  /** The agents' last reports for the page's clusters and the columns. */
  static Future<List<Cell>> cells(SqlClient client, List<ClusterRow> page, List<Column> columns) {
    String[] subs = columns.stream().map(Column::name).toArray(String[]::new);
    String[] clusters = page.stream().map(ClusterRow::name).toArray(String[]::new);
    Map<String, ClusterRow> byName = new HashMap<>();
    page.forEach(r -> byName.put(r.name(), r));
    return client
        .preparedQuery(CELLS)
        .execute(Tuple.of((Object) subs, (Object) clusters))
        .map(
            rows -> {
              List<Cell> out = new ArrayList<>();
              for (Row r : rows) {
                ClusterRow cluster = byName.get(r.getString("cluster"));
                OffsetDateTime updated = r.getOffsetDateTime("updated_at");
                out.add(
                    new Cell(
                        cluster.name(),
                        r.getString("subscription"),
                        cluster.status(),
                        cluster.lastSeen() == null ? null : cluster.lastSeen().toInstant(),
                        cluster.labels(),
                        r.getString("installed_version"),
                        r.getString("target_version"),
                        r.getString("phase"),
                        r.getString("reason"),
                        r.getString("message"),
                        r.getString("waiting_for"),
                        updated == null ? null : updated.toInstant()));
              }
              return out;
            });
  }
}
