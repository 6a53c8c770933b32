package io.olmstead.controlplane.clusters;

import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

/** A row of {@code clusters} and its API form. */
public record Cluster(
    String name,
    JsonObject labels,
    String status,
    OffsetDateTime lastSeen,
    String agentVersion,
    String kubernetesVersion,
    JsonObject facts,
    long resourceVersion,
    OffsetDateTime createdAt) {

  // A connected cluster was last seen at its replica's last presence lease renewal (the replica
  // closes a session
  // silent for longer than the disconnect window); any other at its last_seen.
  static final String COLUMNS =
      "name, labels, status, CASE WHEN clusters.status = 'connected' THEN "
          + "greatest(clusters.last_seen, (SELECT r.seen_at FROM agent_channel_state s JOIN gateway_replicas r "
          + "ON r.replica = s.replica WHERE s.cluster = clusters.name)) ELSE clusters.last_seen END AS last_seen, "
          + "agent_version, kubernetes_version, facts, resource_version, created_at";

  static Cluster of(Row row) {
    return new Cluster(
        row.getString("name"),
        json(row.getValue("labels")),
        row.getString("status"),
        row.getOffsetDateTime("last_seen"),
        row.getString("agent_version"),
        row.getString("kubernetes_version"),
        json(row.getValue("facts")),
        row.getLong("resource_version"),
        row.getOffsetDateTime("created_at"));
  }

  /** Labels as a map of strings (what selectors and team checks read). */
  public Map<String, String> labelMap() {
    Map<String, String> map = new LinkedHashMap<>();
    labels.forEach(e -> map.put(e.getKey(), String.valueOf(e.getValue())));
    return map;
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("name", name)
        .put("labels", labels)
        .put("status", status)
        .put("lastSeen", lastSeen == null ? null : lastSeen.toString())
        .put("agentVersion", agentVersion)
        .put("kubernetesVersion", kubernetesVersion)
        .put("facts", facts)
        .put("resourceVersion", resourceVersion)
        .put("createdAt", createdAt.toString());
  }

  private static JsonObject json(Object value) {
    return value instanceof JsonObject json ? json : new JsonObject();
  }
}
