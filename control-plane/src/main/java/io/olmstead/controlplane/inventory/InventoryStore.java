package io.olmstead.controlplane.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tables of V24: a cluster's inventory document and its operator and CRD rows. A report replaces the cluster's
 * previous one in one transaction.
 */
final class InventoryStore {
  private static final String UPSERT = "INSERT INTO cluster_inventory (cluster, reported_at, truncated, operators) "
      + "VALUES ($1, now(), $2, $3) ON CONFLICT (cluster) DO UPDATE SET reported_at = now(), "
      + "truncated = EXCLUDED.truncated, operators = EXCLUDED.operators";
  private static final String CLEAR = "DELETE FROM cluster_inventory_operators WHERE cluster = $1";
  private static final String INSERT_OPERATOR = "INSERT INTO cluster_inventory_operators (cluster, subscription, "
      + "package, version, dependency_of, custom_resources, pods, restarts, requested_cpu_millis, requested_memory, "
      + "used_cpu_millis, used_memory, stack_pods, stack_cpu_millis, stack_memory, stack_used_cpu, stack_used_memory) "
      + "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)";
  private static final String INSERT_CRD = "INSERT INTO cluster_inventory_crds (cluster, subscription, package, crd, "
      + "kind, count) VALUES ($1, $2, $3, $4, $5, $6)";
  private static final String DOCUMENT = "SELECT reported_at, truncated, operators FROM cluster_inventory "
      + "WHERE cluster = $1";

  /** A stored report as read back. */
  record Document(OffsetDateTime reportedAt, boolean truncated, JsonArray operators) {
  }

  /** Replaces the cluster's inventory (run in a transaction). */
  Future<Void> replace(SqlClient tx, String cluster, Inventory inventory) {
    JsonArray document;
    try {
      document = new JsonArray(ProtocolCodec.mapper().writeValueAsString(inventory.operators()));
    } catch (JsonProcessingException e) {
      return Future.failedFuture(e);
    }
    List<Tuple> operators = new ArrayList<>();
    List<Tuple> crds = new ArrayList<>();
    for (Inventory.Operator op : inventory.operators()) {
      OperatorTotals t = OperatorTotals.of(op);
      operators.add(Tuple.wrap(new ArrayList<>(java.util.Arrays.asList(cluster, op.subscription(), op.packageName(),
          op.version() == null ? "" : op.version(), op.dependencyOf(), t.customResources(), t.pods(), t.restarts(),
          t.requestedCpu(), t.requestedMemory(), t.usedCpu(), t.usedMemory(), t.stackPods(), t.stackCpu(),
          t.stackMemory(), t.stackUsedCpu(), t.stackUsedMemory()))));
      for (Inventory.CustomResources cr : InventoryCheck.nonNull(op.customResources())) {
        crds.add(Tuple.of(cluster, op.subscription(), op.packageName(), cr.name(), cr.kind(), cr.count()));
      }
    }
    Future<?> chain = tx.preparedQuery(UPSERT).execute(Tuple.of(cluster, Boolean.TRUE.equals(inventory.truncated()),
            document))
        .compose(v -> tx.preparedQuery(CLEAR).execute(Tuple.of(cluster)));
    if (!operators.isEmpty()) {
      chain = chain.compose(v -> tx.preparedQuery(INSERT_OPERATOR).executeBatch(operators));
    }
    if (!crds.isEmpty()) {
      chain = chain.compose(v -> tx.preparedQuery(INSERT_CRD).executeBatch(crds));
    }
    return chain.mapEmpty();
  }

  Future<Optional<Document>> document(SqlClient client, String cluster) {
    return client.preparedQuery(DOCUMENT).execute(Tuple.of(cluster)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      Object operators = row.getValue("operators");
      return Optional.of(new Document(row.getOffsetDateTime("reported_at"), row.getBoolean("truncated"),
          operators instanceof JsonArray array ? array : new JsonArray()));
    });
  }

  /** Custom resources per package and CRD over the fleet, the largest first, at most {@code limit} rows. */
  Future<List<JsonObject>> customResourcesByCrd(SqlClient client, int limit) {
    return client.preparedQuery("SELECT package, crd, sum(count)::bigint AS count FROM cluster_inventory_crds "
            + "GROUP BY package, crd ORDER BY count DESC, package, crd LIMIT $1").execute(Tuple.of(limit))
        .map(rows -> {
          List<JsonObject> out = new ArrayList<>();
          rows.forEach(r -> out.add(new JsonObject().put("package", r.getString("package"))
              .put("crd", r.getString("crd")).put("count", r.getLong("count"))));
          return out;
        });
  }

  /** Clusters, requested and used CPU and memory (operator and stack pods) per package, at most {@code limit}. */
  Future<List<JsonObject>> totalsByPackage(SqlClient client, int limit) {
    return client.preparedQuery("SELECT package, count(DISTINCT cluster) AS clusters, "
            + "sum(requested_cpu_millis + stack_cpu_millis)::bigint AS cpu, "
            + "sum(requested_memory + stack_memory)::bigint AS memory, "
            + "sum(coalesce(used_cpu_millis, 0) + coalesce(stack_used_cpu, 0))::bigint AS used_cpu, "
            + "sum(coalesce(used_memory, 0) + coalesce(stack_used_memory, 0))::bigint AS used_memory "
            + "FROM cluster_inventory_operators GROUP BY package ORDER BY clusters DESC, package LIMIT $1")
        .execute(Tuple.of(limit)).map(rows -> {
          List<JsonObject> out = new ArrayList<>();
          rows.forEach(r -> out.add(new JsonObject().put("package", r.getString("package"))
              .put("clusters", r.getLong("clusters")).put("cpu", r.getLong("cpu")).put("memory", r.getLong("memory"))
              .put("usedCpu", r.getLong("used_cpu")).put("usedMemory", r.getLong("used_memory"))));
          return out;
        });
  }
}
