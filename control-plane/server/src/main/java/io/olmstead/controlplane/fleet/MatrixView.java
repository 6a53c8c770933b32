package io.olmstead.controlplane.fleet;

import io.olmstead.controlplane.fleet.MatrixQueries.ClusterRow;
import io.olmstead.controlplane.rollout.MatrixReasons;
import io.olmstead.controlplane.rollout.MatrixReasons.Cell;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet matrix's rows as the API answers them: each cluster with its cells by subscription.
 * Pure.
 */
final class MatrixView {
  private MatrixView() {}

  static JsonArray items(List<ClusterRow> page, List<Cell> cells, Map<String, JsonObject> reasons) {
    Map<String, JsonObject> byCluster = new HashMap<>();
    for (Cell cell : cells) {
      // a page holds up to 500 x 20 cells: absent fields rather than nulls keep the answer small
      JsonObject json = new JsonObject();
      putSome(json, "installedVersion", cell.installedVersion());
      putSome(json, "targetVersion", cell.targetVersion());
      putSome(json, "phase", cell.phase());
      putSome(json, "agentReason", cell.agentReason());
      putSome(json, "agentMessage", cell.agentMessage());
      putSome(json, "updatedAt", cell.updatedAt() == null ? null : cell.updatedAt().toString());
      putSome(json, "reason", reasons.get(MatrixReasons.key(cell.cluster(), cell.subscription())));
      byCluster
          .computeIfAbsent(cell.cluster(), k -> new JsonObject())
          .put(cell.subscription(), json);
    }
    JsonArray items = new JsonArray();
    for (ClusterRow row : page) {
      items.add(
          new JsonObject()
              .put("cluster", row.name())
              .put("status", row.status())
              .put("labels", row.labels() == null ? new JsonObject() : row.labels())
              .put(
                  "lastSeen", row.lastSeen() == null ? null : row.lastSeen().toInstant().toString())
              .put("cells", byCluster.getOrDefault(row.name(), new JsonObject())));
    }
    return items;
  }

  private static void putSome(JsonObject json, String key, Object value) {
    if (value != null) {
      json.put(key, value);
    }
  }
}
