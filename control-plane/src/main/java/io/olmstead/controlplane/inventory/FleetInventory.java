package io.olmstead.controlplane.inventory;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.clusters.LabelSelector;
import io.olmstead.controlplane.clusters.SelectorSql;
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
 * {@code GET /inventory}: the fleet's operators by package and version over the clusters a label selector and the
 * teams allow: clusters, installs, custom resources (in all and per CRD), the operators' pods and the pods of their
 * custom resources (application stacks) with requests and, where clusters report it, use.
 */
final class FleetInventory {
  /** Package-version groups answered at most; the answer says {@code truncated} beyond. */
  static final int MAX_GROUPS = 1000;

  private static final String TOTALS = "SELECT o.package, o.version, count(DISTINCT o.cluster) AS clusters, "
      + "count(*) AS installs, sum(o.custom_resources)::bigint AS crs, sum(o.pods)::bigint AS pods, "
      + "sum(o.restarts)::bigint AS restarts, sum(o.requested_cpu_millis)::bigint AS cpu, "
      + "sum(o.requested_memory)::bigint AS memory, sum(o.used_cpu_millis)::bigint AS used_cpu, "
      + "sum(o.used_memory)::bigint AS used_memory, sum(o.stack_pods)::bigint AS stack_pods, "
      + "sum(o.stack_cpu_millis)::bigint AS stack_cpu, sum(o.stack_memory)::bigint AS stack_memory, "
      + "sum(o.stack_used_cpu)::bigint AS stack_used_cpu, sum(o.stack_used_memory)::bigint AS stack_used_memory "
      + "FROM cluster_inventory_operators o JOIN clusters c ON c.name = o.cluster WHERE ";
  private static final String CRDS = "SELECT o.package, o.version, d.crd, max(d.kind) AS kind, "
      + "sum(d.count)::bigint AS count FROM cluster_inventory_crds d JOIN cluster_inventory_operators o "
      + "ON o.cluster = d.cluster AND o.subscription = d.subscription JOIN clusters c ON c.name = o.cluster WHERE ";

  private FleetInventory() {
  }

  /** The aggregate for clusters matching {@code selector} whose team is among {@code teams} (null: any team). */
  static Future<JsonObject> query(SqlClient client, LabelSelector selector, String[] teams) {
    List<Object> params = new ArrayList<>();
    params.add(teams);
    SelectorSql sel = SelectorSql.of(selector, "c.labels", 2);
    params.addAll(sel.params());
    String where = "($1::text[] IS NULL OR c.labels ->> '" + Principal.TEAM_LABEL + "' = ANY($1::text[])) AND "
        + sel.sql();
    Tuple tuple = Tuple.wrap(params);
    String limit = " LIMIT " + (MAX_GROUPS + 1);
    return client.preparedQuery(TOTALS + where + " GROUP BY o.package, o.version ORDER BY o.package, o.version"
            + limit).execute(tuple)
        .compose(totals -> client.preparedQuery(CRDS + where + " GROUP BY o.package, o.version, d.crd "
                + "ORDER BY o.package, o.version, d.crd").execute(tuple)
            .map(crds -> {
              Map<String, JsonObject> groups = new LinkedHashMap<>();
              for (Row r : totals) {
                if (groups.size() < MAX_GROUPS) {
                  groups.put(r.getString("package") + '\u0000' + r.getString("version"), group(r));
                }
              }
              for (Row r : crds) {
                JsonObject g = groups.get(r.getString("package") + '\u0000' + r.getString("version"));
                if (g != null) {
                  g.getJsonArray("customResources").add(new JsonObject().put("name", r.getString("crd"))
                      .put("kind", r.getString("kind")).put("count", r.getLong("count")));
                }
              }
              return new JsonObject().put("items", new JsonArray(new ArrayList<>(groups.values())))
                  .put("truncated", totals.size() > MAX_GROUPS);
            }));
  }

  private static JsonObject group(Row r) {
    JsonObject operatorPods = pods(r.getLong("pods"), r.getLong("cpu"), r.getLong("memory"), r.getLong("used_cpu"),
        r.getLong("used_memory")).put("restarts", r.getLong("restarts"));
    JsonObject stackPods = pods(r.getLong("stack_pods"), r.getLong("stack_cpu"), r.getLong("stack_memory"),
        r.getLong("stack_used_cpu"), r.getLong("stack_used_memory"));
    return new JsonObject().put("package", r.getString("package")).put("version", r.getString("version"))
        .put("clusters", r.getLong("clusters")).put("installs", r.getLong("installs"))
        .put("customResourceCount", r.getLong("crs")).put("customResources", new JsonArray())
        .put("operatorPods", operatorPods).put("applicationPods", stackPods);
  }

  private static JsonObject pods(Long count, Long cpu, Long memory, Long usedCpu, Long usedMemory) {
    JsonObject pods = new JsonObject().put("count", count).put("requests", resources(cpu, memory));
    if (usedCpu != null) {
      pods.put("usage", resources(usedCpu, usedMemory));
    }
    return pods;
  }

  static JsonObject resources(Long cpu, Long memory) {
    return new JsonObject().put("cpuMillis", cpu == null ? 0 : cpu).put("memoryBytes", memory == null ? 0 : memory);
  }
}
