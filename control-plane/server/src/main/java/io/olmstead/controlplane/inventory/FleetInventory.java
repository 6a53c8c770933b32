package io.olmstead.controlplane.inventory;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.Cursors;
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
 * {@code GET /inventory}: the fleet's operators by package and version over the clusters a label
 * selector and the teams allow: clusters and installs (those reported {@code Succeeded}), failed
 * installs (reported {@code Failed}), custom resources (in all and per CRD), the operators' pods
 * and the pods of their custom resources (application stacks) with requests and, where clusters
 * report it, use, whatever each operator's phase.
 */
final class FleetInventory {
  /**
   * Every reported number is bounded by the agent's schema (2^53-1 at most), their sums over
   * operators and clusters are not: each sum saturates at {@link #MAX_TOTAL} rather than
   * overflowing bigint (which failed the whole read).
   */
  static final long MAX_TOTAL = 9_007_199_254_740_991L;

  /**
   * An install counts as one only when it succeeded; a failed install is counted apart, the others
   * not at all.
   */
  private static final String SUCCEEDED = "o.phase = 'Succeeded'";

  private static final String TOTALS =
      "SELECT o.package, o.version, count(DISTINCT o.cluster) FILTER (WHERE "
          + SUCCEEDED
          + ") AS clusters, count(*) FILTER (WHERE "
          + SUCCEEDED
          + ") AS installs, count(*) FILTER (WHERE "
          + "o.phase = 'Failed') AS failed, "
          + total("o.custom_resources", "crs")
          + ", "
          + total("o.pods", "pods")
          + ", "
          + total("o.restarts", "restarts")
          + ", "
          + total("o.requested_cpu_millis", "cpu")
          + ", "
          + total("o.requested_memory", "memory")
          + ", "
          + total("o.used_cpu_millis", "used_cpu")
          + ", "
          + total("o.used_memory", "used_memory")
          + ", "
          + total("o.stack_pods", "stack_pods")
          + ", "
          + total("o.stack_cpu_millis", "stack_cpu")
          + ", "
          + total("o.stack_memory", "stack_memory")
          + ", "
          + total("o.stack_used_cpu", "stack_used_cpu")
          + ", "
          + total("o.stack_used_memory", "stack_used_memory")
          + " "
          + "FROM cluster_inventory_operators o JOIN clusters c ON c.name = o.cluster WHERE ";
  private static final String CRDS =
      "SELECT o.package, o.version, d.crd, max(d.kind) AS kind, "
          + total("d.count", "count")
          + " FROM cluster_inventory_crds d JOIN cluster_inventory_operators o "
          + "ON o.cluster = d.cluster AND o.subscription = d.subscription JOIN clusters c ON c.name = o.cluster WHERE ";

  private FleetInventory() {}

  /**
   * {@code sum(expr)} as a bigint column, saturated at {@link #MAX_TOTAL} (summed as numeric, so
   * nothing overflows; not LEAST, which would turn the NULL of "nobody reported it" into the
   * maximum).
   */
  static String total(String expr, String alias) {
    String sum = "sum((" + expr + ")::numeric)";
    return "(CASE WHEN "
        + sum
        + " > "
        + MAX_TOTAL
        + " THEN "
        + MAX_TOTAL
        + " ELSE "
        + sum
        + " END)::bigint AS "
        + alias;
  }

  /**
   * One page of the aggregate for clusters matching {@code selector} whose team is among {@code
   * teams} (null: any team): at most {@code limit} package-version groups after {@code after}
   * ({@code [package, version]}, null: from the first), ordered by package and version; {@code
   * nextCursor} when more follow.
   */
  static Future<JsonObject> query(
      SqlClient client, LabelSelector selector, String[] teams, int limit, JsonArray after) {
    List<Object> params = new ArrayList<>();
    params.add(teams);
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 2);
    params.addAll(sel.params());
    String where =
        "($1::text[] IS NULL OR c.labels ->> '"
            + Principal.TEAM_LABEL
            + "' = ANY($1::text[])) AND "
            + sel.sql();
    int next = params.size() + 1;
    List<Object> pageParams = new ArrayList<>(params);
    pageParams.add(after == null ? null : after.getString(0));
    pageParams.add(after == null ? null : after.getString(1));
    String page =
        " AND ($"
            + next
            + "::text IS NULL OR (o.package, o.version) > ($"
            + next
            + "::text, $"
            + (next + 1)
            + "::text)) GROUP BY o.package, o.version ORDER BY o.package, o.version LIMIT "
            + (limit + 1);
    return client
        .preparedQuery(TOTALS + where + page)
        .execute(Tuple.wrap(pageParams))
        .compose(
            totals -> {
              Map<String, JsonObject> groups = new LinkedHashMap<>();
              List<String> packages = new ArrayList<>();
              for (Row r : totals) {
                if (groups.size() < limit) {
                  groups.put(r.getString("package") + '\u0000' + r.getString("version"), group(r));
                  packages.add(r.getString("package"));
                }
              }
              List<Object> crdParams = new ArrayList<>(params);
              crdParams.add(packages.toArray(new String[0]));
              return client
                  .preparedQuery(
                      CRDS
                          + where
                          + " AND o.package = ANY($"
                          + next
                          + "::text[]) "
                          + "GROUP BY o.package, o.version, d.crd ORDER BY o.package, o.version, d.crd")
                  .execute(Tuple.wrap(crdParams))
                  .map(
                      crds -> {
                        for (Row r : crds) {
                          JsonObject g =
                              groups.get(
                                  r.getString("package") + '\u0000' + r.getString("version"));
                          if (g != null) {
                            g.getJsonArray("customResources")
                                .add(
                                    new JsonObject()
                                        .put("name", r.getString("crd"))
                                        .put("kind", r.getString("kind"))
                                        .put("count", r.getLong("count")));
                          }
                        }
                        List<JsonObject> items = new ArrayList<>(groups.values());
                        String cursor =
                            totals.size() > limit
                                ? Cursors.encode(
                                    new JsonArray()
                                        .add(items.get(items.size() - 1).getString("package"))
                                        .add(items.get(items.size() - 1).getString("version")))
                                : null;
                        return new JsonObject()
                            .put("items", new JsonArray(items))
                            .put("nextCursor", cursor)
                            .put("truncated", false);
                      });
            });
  }

  private static JsonObject group(Row r) {
    JsonObject operatorPods =
        pods(
                r.getLong("pods"),
                r.getLong("cpu"),
                r.getLong("memory"),
                r.getLong("used_cpu"),
                r.getLong("used_memory"))
            .put("restarts", r.getLong("restarts"));
    JsonObject stackPods =
        pods(
            r.getLong("stack_pods"),
            r.getLong("stack_cpu"),
            r.getLong("stack_memory"),
            r.getLong("stack_used_cpu"),
            r.getLong("stack_used_memory"));
    return new JsonObject()
        .put("package", r.getString("package"))
        .put("version", r.getString("version"))
        .put("clusters", r.getLong("clusters"))
        .put("installs", r.getLong("installs"))
        .put("failedInstalls", r.getLong("failed"))
        .put("customResourceCount", r.getLong("crs"))
        .put("customResources", new JsonArray())
        .put("operatorPods", operatorPods)
        .put("applicationPods", stackPods);
  }

  private static JsonObject pods(Long count, Long cpu, Long memory, Long usedCpu, Long usedMemory) {
    JsonObject pods = new JsonObject().put("count", count).put("requests", resources(cpu, memory));
    if (usedCpu != null) {
      pods.put("usage", resources(usedCpu, usedMemory));
    }
    return pods;
  }

  static JsonObject resources(Long cpu, Long memory) {
    return new JsonObject()
        .put("cpuMillis", cpu == null ? 0 : cpu)
        .put("memoryBytes", memory == null ? 0 : memory);
  }
}
