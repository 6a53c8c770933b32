package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.selector.LabelSelector;
import io.olmstead.controlplane.selector.SelectorSql;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code clusters} table. Every change bumps {@code resource_version}. New, deleted and
 * relabelled clusters are announced by the triggers of V8 on {@code olmstead_events} (the event
 * stream) and label changes also by V4's on {@code olmstead_agent_changes} (the agent gateways),
 * both delivered at commit.
 */
public final class ClusterStore {
  private static final String FIND = "SELECT " + Cluster.COLUMNS + " FROM clusters WHERE name = $1";
  private static final String INSERT =
      "INSERT INTO clusters (name, labels, status, agent_version, kubernetes_version,"
          + " facts) VALUES ($1, $2, $3, $4, $5, $6) RETURNING "
          + Cluster.COLUMNS;
  private static final String SET_LABELS =
      "UPDATE clusters SET labels = $2, resource_version = resource_version + 1,"
          + " updated_at = now() WHERE name = $1 RETURNING "
          + Cluster.COLUMNS;
  private static final String DELETE = "DELETE FROM clusters WHERE name = $1";
  private static final String DISCONNECT =
      "UPDATE clusters SET status = CASE WHEN status = 'connected' "
          + "THEN 'disconnected' ELSE status END WHERE name = $1 RETURNING "
          + Cluster.COLUMNS;

  /**
   * What to list: a selector, an optional status, the caller's teams (empty: all), after a name, a
   * page size; and optionally a name prefix and the clusters that report a subscription (in a
   * phase, at an installed version, {@code none} for no install yet).
   */
  public record Query(
      LabelSelector selector,
      Optional<String> status,
      List<String> teams,
      Optional<String> after,
      int limit,
      Optional<String> namePrefix,
      Optional<String> subscription,
      Optional<String> phase,
      Optional<String> version) {
    public Query(
        LabelSelector selector,
        Optional<String> status,
        List<String> teams,
        Optional<String> after,
        int limit) {
      this(
          selector,
          status,
          teams,
          after,
          limit,
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty());
    }
  }

  /**
   * Clusters matching the query in name order, at most {@code limit + 1} rows (the extra one says
   * more follow).
   */
  public Future<List<Cluster>> page(SqlClient client, Query query) {
    List<Object> params = new ArrayList<>();
    StringBuilder sql =
        new StringBuilder("SELECT ").append(Cluster.COLUMNS).append(" FROM clusters WHERE TRUE");
    query
        .after()
        .ifPresent(
            name -> {
              params.add(name);
              sql.append(" AND name > $").append(params.size());
            });
    query
        .status()
        .ifPresent(
            status -> {
              params.add(status);
              sql.append(" AND status = $").append(params.size());
            });
    query
        .namePrefix()
        .ifPresent(
            prefix -> {
              // names are [a-z0-9-] (the table's CHECK and the spec's pattern): nothing in a prefix
              // is a LIKE wildcard
              params.add(prefix + "%");
              sql.append(" AND name LIKE $").append(params.size());
            });
    query
        .subscription()
        .ifPresent(
            sub -> {
              params.add(sub);
              // as the fleet summary counts them: a retired cluster runs nothing any more
              sql.append(" AND status <> 'retired' AND EXISTS (SELECT 1 FROM subscription_status s")
                  .append(" WHERE s.cluster = clusters.name AND NOT s.gone")
                  .append(" AND s.subscription = $")
                  .append(params.size());
              query
                  .phase()
                  .ifPresent(
                      phase -> {
                        params.add(phase);
                        sql.append(" AND s.phase = $").append(params.size());
                      });
              query
                  .version()
                  .ifPresent(
                      version -> {
                        params.add("none".equals(version) ? null : version);
                        sql.append(" AND s.installed_version IS NOT DISTINCT FROM $")
                            .append(params.size())
                            .append("::text");
                      });
              sql.append(")");
            });
    if (!query.teams().isEmpty()) {
      params.add(query.teams().toArray(new String[0]));
      sql.append(" AND labels ->> '")
          .append(Principal.TEAM_LABEL)
          .append("' = ANY($")
          .append(params.size())
          .append("::text[])");
    }
    SelectorSql selector = SelectorSql.of(query.selector(), "labels", params.size() + 1);
    params.addAll(selector.params());
    sql.append(" AND ").append(selector.sql());
    params.add(query.limit() + 1);
    sql.append(" ORDER BY name LIMIT $").append(params.size());
    return client
        .preparedQuery(sql.toString())
        .execute(Tuple.wrap(params))
        .map(ClusterStore::clusters);
  }

  public Future<Optional<Cluster>> find(SqlClient client, String name) {
    return client.preparedQuery(FIND).execute(Tuple.of(name)).map(rows -> first(clusters(rows)));
  }

  /** The cluster locked until the transaction ends (read-modify-write under {@code If-Match}). */
  public Future<Optional<Cluster>> findForUpdate(SqlClient client, String name) {
    return client
        .preparedQuery(FIND + " FOR UPDATE")
        .execute(Tuple.of(name))
        .map(rows -> first(clusters(rows)));
  }

  /** A new cluster (used at enrollment); a duplicate name fails with 23505 (409). */
  public Future<Cluster> insert(
      SqlClient client,
      String name,
      JsonObject labels,
      String status,
      String agentVersion,
      String kubernetesVersion,
      JsonObject facts) {
    return client
        .preparedQuery(INSERT)
        .execute(Tuple.of(name, labels, status, agentVersion, kubernetesVersion, facts))
        .map(rows -> clusters(rows).get(0));
  }

  public Future<Cluster> setLabels(SqlClient client, String name, JsonObject labels) {
    return client
        .preparedQuery(SET_LABELS)
        .execute(Tuple.of(name, labels))
        .map(rows -> clusters(rows).get(0));
  }

  /**
   * Marks a connected cluster disconnected (its agent was cut off); a pending one stays pending.
   */
  public Future<Cluster> disconnect(SqlClient client, String name) {
    return client
        .preparedQuery(DISCONNECT)
        .execute(Tuple.of(name))
        .map(rows -> clusters(rows).get(0));
  }

  public Future<Boolean> delete(SqlClient client, String name) {
    return client.preparedQuery(DELETE).execute(Tuple.of(name)).map(rows -> rows.rowCount() == 1);
  }

  private static <T> Optional<T> first(List<T> list) {
    return list.isEmpty() ? Optional.empty() : Optional.of(list.get(0));
  }

  private static List<Cluster> clusters(RowSet<Row> rows) {
    List<Cluster> clusters = new ArrayList<>();
    rows.forEach(row -> clusters.add(Cluster.of(row)));
    return clusters;
  }
}
