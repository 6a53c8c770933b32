package io.olmstead.controlplane.subscription;

import io.olmstead.controlplane.selector.SelectorSql;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The clusters a subscription's placement selects, evaluated in PostgreSQL (the selector becomes a
 * jsonb condition the GIN index on labels serves), with the same rules as {@link Placements}.
 */
public final class PlacementQueries {

  /**
   * A page of selected clusters ({@code name, labels, status}) after {@code afterName}, by name.
   */
  public Future<List<JsonObject>> page(
      SqlClient client, SubscriptionSpec spec, String afterName, int limit) {
    List<Object> params = new ArrayList<>();
    String where = condition(spec, params);
    params.add(afterName);
    params.add(limit);
    String sql =
        "SELECT name, labels, status FROM clusters WHERE "
            + where
            + " AND ($"
            + (params.size() - 1)
            + "::text IS NULL OR name > $"
            + (params.size() - 1)
            + ") ORDER BY name LIMIT $"
            + params.size();
    return client
        .preparedQuery(sql)
        .execute(Tuple.from(params))
        .map(
            rows -> {
              List<JsonObject> out = new ArrayList<>(rows.size());
              for (Row row : rows) {
                Object labels = row.getValue(1);
                out.add(
                    new JsonObject()
                        .put("name", row.getString(0))
                        .put("labels", labels instanceof JsonObject json ? json : new JsonObject())
                        .put("status", row.getString(2)));
              }
              return out;
            });
  }

  /** How many clusters the placement selects now. */
  public Future<Long> count(SqlClient client, SubscriptionSpec spec) {
    List<Object> params = new ArrayList<>();
    String sql = "SELECT count(*) FROM clusters WHERE " + condition(spec, params);
    return client
        .preparedQuery(sql)
        .execute(Tuple.from(params))
        .map(rows -> rows.iterator().next().getLong(0));
  }

  /**
   * How many selected clusters report each Kubernetes version (at most {@code limit} distinct
   * versions).
   */
  public Future<Map<String, Long>> kubeVersions(
      SqlClient client, SubscriptionSpec spec, int limit) {
    List<Object> params = new ArrayList<>();
    String where = condition(spec, params);
    params.add(limit);
    String sql =
        "SELECT kubernetes_version, count(*) FROM clusters WHERE "
            + where
            + " AND kubernetes_version IS NOT NULL GROUP BY kubernetes_version ORDER BY kubernetes_version LIMIT $"
            + params.size();
    return client
        .preparedQuery(sql)
        .execute(Tuple.from(params))
        .map(
            rows -> {
              Map<String, Long> out = new TreeMap<>();
              rows.forEach(r -> out.put(r.getString(0), r.getLong(1)));
              return out;
            });
  }

  /**
   * The first {@code limit} selected clusters (by name) reporting one of {@code versions}: name to
   * version.
   */
  public Future<Map<String, String>> withKubeVersions(
      SqlClient client, SubscriptionSpec spec, Collection<String> versions, int limit) {
    List<Object> params = new ArrayList<>();
    String where = condition(spec, params);
    params.add(versions.toArray(String[]::new));
    params.add(limit);
    String sql =
        "SELECT name, kubernetes_version FROM clusters WHERE "
            + where
            + " AND kubernetes_version = ANY($"
            + (params.size() - 1)
            + "::text[]) ORDER BY name LIMIT $"
            + params.size();
    return client
        .preparedQuery(sql)
        .execute(Tuple.from(params))
        .map(
            rows -> {
              Map<String, String> out = new LinkedHashMap<>();
              rows.forEach(r -> out.put(r.getString(0), r.getString(1)));
              return out;
            });
  }

  private static String condition(SubscriptionSpec spec, List<Object> params) {
    params.add(spec.placement().clusters().toArray(new String[0]));
    // a retired cluster (its HostedCluster is gone) is kept for its history but never placed
    StringBuilder sql = new StringBuilder("status <> 'retired' AND (name = ANY($1::text[])");
    if (spec.placement().selector() != null) {
      SelectorSql selector =
          SelectorSql.of(Placements.selector(spec.placement().selector()), "labels", 2);
      params.addAll(selector.params());
      sql.append(" OR (").append(selector.sql()).append(")");
    }
    sql.append(")");
    if (spec.team() != null) {
      params.add(new JsonObject().put(SubscriptionSpec.TEAM_LABEL, spec.team()));
      sql.append(" AND labels @> $").append(params.size()).append("::jsonb");
    }
    return sql.toString();
  }
}
