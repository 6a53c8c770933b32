package io.olmstead.controlplane.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.ProtocolCodec;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The tables of V24 (and V28's hash): a cluster's inventory document and its operator and CRD rows.
 * A report replaces the cluster's previous one in one transaction; one equal to it only refreshes
 * its time.
 */
final class InventoryStore {
  // the document goes as text (PostgreSQL parses it): no second parse on the control plane. A
  // report equal to the
  // stored one (same hash) changes nothing here (no row: see TOUCH).
  private static final String UPSERT =
      "INSERT INTO cluster_inventory (cluster, reported_at, truncated, operators, "
          + "report_hash) VALUES ($1, now(), $2, $3::text::jsonb, $4) ON CONFLICT (cluster) DO UPDATE SET "
          + "reported_at = now(), truncated = EXCLUDED.truncated, operators = EXCLUDED.operators, "
          + "report_hash = EXCLUDED.report_hash WHERE cluster_inventory.report_hash IS DISTINCT FROM EXCLUDED.report_hash";
  private static final String TOUCH =
      "UPDATE cluster_inventory SET reported_at = now() WHERE cluster = $1";
  private static final String CLEAR = "DELETE FROM cluster_inventory_operators WHERE cluster = $1";
  // one statement per table for all the report's rows (arrays, unnest), not one per row
  private static final String INSERT_OPERATORS =
      "INSERT INTO cluster_inventory_operators (cluster, subscription, "
          + "package, version, dependency_of, custom_resources, pods, restarts, requested_cpu_millis, requested_memory, "
          + "used_cpu_millis, used_memory, stack_pods, stack_cpu_millis, stack_memory, stack_used_cpu, stack_used_memory, "
          + "phase) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::int4[], "
          + "$8::int8[], $9::int8[], $10::int8[], $11::int8[], $12::int8[], $13::int4[], $14::int8[], $15::int8[], "
          + "$16::int8[], $17::int8[], $18::text[])";
  private static final String INSERT_CRDS =
      "INSERT INTO cluster_inventory_crds (cluster, subscription, package, crd, "
          + "kind, count) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int8[])";
  private static final String DOCUMENT =
      "SELECT reported_at, truncated, operators FROM cluster_inventory " + "WHERE cluster = $1";

  /** A stored report as read back. */
  record Document(OffsetDateTime reportedAt, boolean truncated, JsonArray operators) {}

  /**
   * Replaces the cluster's inventory (run in a transaction); false when the report equals the
   * stored one (then only its time is refreshed).
   */
  Future<Boolean> replace(SqlClient tx, String cluster, Inventory inventory) {
    String document;
    try {
      document = ProtocolCodec.mapper().writeValueAsString(inventory.operators());
    } catch (JsonProcessingException e) {
      return Future.failedFuture(e);
    }
    boolean truncated = Boolean.TRUE.equals(inventory.truncated());
    Buffer hash = Buffer.buffer(hash(document, truncated));
    return tx.preparedQuery(UPSERT)
        .execute(Tuple.of(cluster, truncated, document, hash))
        .compose(
            up -> {
              if (up.rowCount() == 0) {
                return tx.preparedQuery(TOUCH).execute(Tuple.of(cluster)).map(false);
              }
              return tx.preparedQuery(CLEAR)
                  .execute(Tuple.of(cluster))
                  .compose(v -> rows(tx, cluster, inventory))
                  .map(true);
            });
  }

  private static Future<Void> rows(SqlClient tx, String cluster, Inventory inventory) {
    List<Inventory.Operator> ops = inventory.operators();
    int n = ops.size();
    Object[][] cols = {
      new String[n],
      new String[n],
      new String[n],
      new String[n],
      new Long[n],
      new Integer[n],
      new Long[n],
      new Long[n],
      new Long[n],
      new Long[n],
      new Long[n],
      new Integer[n],
      new Long[n],
      new Long[n],
      new Long[n],
      new Long[n],
      new String[n]
    };
    List<Object[]> crds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Inventory.Operator op = ops.get(i);
      OperatorTotals t = OperatorTotals.of(op);
      Object[] row = {
        op.subscription(),
        op.packageName(),
        op.version() == null ? "" : op.version(),
        op.dependencyOf(),
        t.customResources(),
        t.pods(),
        t.restarts(),
        t.requestedCpu(),
        t.requestedMemory(),
        t.usedCpu(),
        t.usedMemory(),
        t.stackPods(),
        t.stackCpu(),
        t.stackMemory(),
        t.stackUsedCpu(),
        t.stackUsedMemory(),
        op.phase()
      };
      for (int c = 0; c < row.length; c++) {
        cols[c][i] = row[c];
      }
      for (Inventory.CustomResources cr : InventoryCheck.nonNull(op.customResources())) {
        crds.add(
            new Object[] {op.subscription(), op.packageName(), cr.name(), cr.kind(), cr.count()});
      }
    }
    if (n == 0) {
      return Future.succeededFuture();
    }
    List<Object> opArgs = new ArrayList<>(List.of(cluster));
    opArgs.addAll(Arrays.asList(cols));
    Future<?> chain = tx.preparedQuery(INSERT_OPERATORS).execute(Tuple.wrap(opArgs));
    if (!crds.isEmpty()) {
      int m = crds.size();
      Object[][] c = {new String[m], new String[m], new String[m], new String[m], new Long[m]};
      for (int i = 0; i < m; i++) {
        for (int k = 0; k < 5; k++) {
          c[k][i] = crds.get(i)[k];
        }
      }
      List<Object> crdArgs = new ArrayList<>(List.of(cluster));
      crdArgs.addAll(Arrays.asList(c));
      chain = chain.compose(v -> tx.preparedQuery(INSERT_CRDS).execute(Tuple.wrap(crdArgs)));
    }
    return chain.mapEmpty();
  }

  /** SHA-256 of the document and the truncated flag. */
  static byte[] hash(String document, boolean truncated) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(document.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) (truncated ? 1 : 0));
      return sha.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  Future<Optional<Document>> document(SqlClient client, String cluster) {
    return client
        .preparedQuery(DOCUMENT)
        .execute(Tuple.of(cluster))
        .map(
            rows -> {
              if (rows.size() == 0) {
                return Optional.empty();
              }
              Row row = rows.iterator().next();
              Object operators = row.getValue("operators");
              return Optional.of(
                  new Document(
                      row.getOffsetDateTime("reported_at"),
                      row.getBoolean("truncated"),
                      operators instanceof JsonArray array ? array : new JsonArray()));
            });
  }

  /**
   * Custom resources per package and CRD over the fleet, the largest first, at most {@code limit}
   * rows.
   */
  Future<List<JsonObject>> customResourcesByCrd(SqlClient client, int limit) {
    return client
        .preparedQuery(
            "SELECT package, crd, "
                + FleetInventory.total("count", "count")
                + " FROM cluster_inventory_crds "
                + "GROUP BY package, crd ORDER BY count DESC, package, crd LIMIT $1")
        .execute(Tuple.of(limit))
        .map(
            rows -> {
              List<JsonObject> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new JsonObject()
                              .put("package", r.getString("package"))
                              .put("crd", r.getString("crd"))
                              .put("count", r.getLong("count"))));
              return out;
            });
  }

  /**
   * Clusters where the package is installed (reported {@code Succeeded}), requested and used CPU
   * and memory (operator and stack pods, whatever their phase) per package, at most {@code limit}.
   */
  Future<List<JsonObject>> totalsByPackage(SqlClient client, int limit) {
    return client
        .preparedQuery(
            "SELECT package, count(DISTINCT cluster) FILTER (WHERE phase = 'Succeeded') AS "
                + "clusters, "
                + FleetInventory.total("requested_cpu_millis::numeric + stack_cpu_millis", "cpu")
                + ", "
                + FleetInventory.total("requested_memory::numeric + stack_memory", "memory")
                + ", "
                + FleetInventory.total(
                    "coalesce(used_cpu_millis, 0)::numeric + coalesce(stack_used_cpu, 0)",
                    "used_cpu")
                + ", "
                + FleetInventory.total(
                    "coalesce(used_memory, 0)::numeric + coalesce(stack_used_memory, 0)",
                    "used_memory")
                + " "
                + "FROM cluster_inventory_operators GROUP BY package ORDER BY clusters DESC, package LIMIT $1")
        .execute(Tuple.of(limit))
        .map(
            rows -> {
              List<JsonObject> out = new ArrayList<>();
              rows.forEach(
                  r ->
                      out.add(
                          new JsonObject()
                              .put("package", r.getString("package"))
                              .put("clusters", r.getLong("clusters"))
                              .put("cpu", r.getLong("cpu"))
                              .put("memory", r.getLong("memory"))
                              .put("usedCpu", r.getLong("used_cpu"))
                              .put("usedMemory", r.getLong("used_memory"))));
              return out;
            });
  }
}
