package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.Wave;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The read side of rollouts: the JSON of one rollout (waves with counts, history) and of lists. */
final class RolloutQueries {
  private static final String META =
      "SELECT from_versions, started_at, updated_at, created_by FROM rollouts " + "WHERE id = $1";
  // the members a person must act for: not done, connected, their agent waiting for a Manual
  // approval
  // (ClusterReason's WaitingForApproval)
  private static final String WAITING =
      "SELECT count(*) FROM rollout_clusters rc JOIN rollouts r ON r.id = rc.rollout_id "
          + "JOIN subscription_status s ON s.subscription = r.subscription AND s.cluster = rc.cluster AND NOT s.gone "
          + "JOIN clusters c ON c.name = rc.cluster WHERE rc.rollout_id = $1 AND rc.step IN ('Pending', 'Progressing') "
          + "AND s.phase = 'RequiresApproval' AND c.status <> 'disconnected'";
  private static final String HISTORY =
      "SELECT at, kind, wave, cluster, message, actor FROM rollout_history "
          + "WHERE rollout_id = $1 AND (cluster IS NULL OR kind LIKE 'Analysis%') ORDER BY id DESC LIMIT 100";
  // $6: the caller's teams (null: every rollout)
  private static final String LIST =
      "SELECT id, started_at FROM rollouts WHERE ($1::text IS NULL OR subscription = $1) "
          + "AND ($2::text IS NULL OR state = $2) AND ($3::text IS NULL OR started_at < $4 OR "
          + "(started_at = $4 AND id < $3)) AND ($6::text[] IS NULL OR team = ANY($6)) "
          + "ORDER BY started_at DESC, id DESC LIMIT $5";

  private final RolloutStore store = new RolloutStore();

  /** The rollout's JSON, or null when there is none or {@code caller} may not see it. */
  Future<JsonObject> get(SqlClient conn, String id, Principal caller) {
    return store
        .load(conn, id)
        .compose(
            found -> {
              if (found.isEmpty() || !caller.mayAccessTeam(found.get().team())) {
                return Future.succeededFuture(null);
              }
              Rollout r = found.get().rollout();
              Future<Long> waiting =
                  conn.preparedQuery(WAITING)
                      .execute(Tuple.of(id))
                      .map(rows -> rows.iterator().next().getLong(0));
              return conn.preparedQuery(META)
                  .execute(Tuple.of(id))
                  .compose(
                      meta ->
                          waiting.compose(
                              w ->
                                  conn.preparedQuery(HISTORY)
                                      .execute(Tuple.of(id))
                                      .map(
                                          history -> {
                                            Row m = meta.iterator().next();
                                            JsonArray events = new JsonArray();
                                            for (Row h : history) {
                                              events.add(
                                                  new JsonObject()
                                                      .put(
                                                          "at",
                                                          h.getOffsetDateTime("at").toString())
                                                      .put("kind", h.getString("kind"))
                                                      .put("wave", h.getString("wave"))
                                                      .put("message", h.getString("message"))
                                                      .put("actor", h.getString("actor")));
                                              if (h.getString("cluster") != null) {
                                                events
                                                    .getJsonObject(events.size() - 1)
                                                    .put("cluster", h.getString("cluster"));
                                              }
                                            }
                                            JsonObject json = toJson(r);
                                            json.getJsonObject("counts")
                                                .put("waitingForApproval", w);
                                            return json.put(
                                                    "fromVersions",
                                                    new JsonArray(
                                                        List.of(
                                                            (Object[])
                                                                m.getArrayOfStrings(
                                                                    "from_versions"))))
                                                .put(
                                                    "startedAt",
                                                    m.getOffsetDateTime("started_at").toString())
                                                .put(
                                                    "updatedAt",
                                                    m.getOffsetDateTime("updated_at").toString())
                                                .put("createdBy", m.getString("created_by"))
                                                .put("resourceVersion", found.get().version())
                                                .put("history", events);
                                          })))
                  .compose(json -> store.group(conn, id).map(group -> withTargets(json, group)));
            });
  }

  /**
   * A rollout of several targets names its group and lists every target with its state and counts.
   */
  static JsonObject withTargets(JsonObject json, TargetGroup group) {
    if (group.rows().isEmpty()) {
      return json;
    }
    JsonArray targets = new JsonArray();
    for (TargetGroup.Row row : group.rows()) {
      Map<Step, Integer> c = new EnumMap<>(Step.class);
      row.members().values().forEach(m -> c.merge(m.step(), 1, Integer::sum));
      targets.add(
          new JsonObject()
              .put("rollout", row.rollout())
              .put("subscription", row.subscription())
              .put("targetVersion", row.targetVersion())
              .put("state", row.phase().name())
              .put("counts", counts(c).put("clusters", row.members().size())));
    }
    return json.put("group", group.rows().get(0).rollout()).put("targets", targets);
  }

  /**
   * A cluster's step in each target of its rollout's group, in the order it takes them (empty: one
   * target).
   */
  static JsonArray targetsOf(TargetGroup group, String cluster) {
    JsonArray out = new JsonArray();
    for (TargetGroup.Row row : group.rows()) {
      TargetGroup.Member m = row.members().get(cluster);
      if (m != null) {
        out.add(
            new JsonObject()
                .put("rollout", row.rollout())
                .put("subscription", row.subscription())
                .put("targetVersion", row.targetVersion())
                .put("state", m.step().name())
                .put("message", m.message()));
      }
    }
    return out;
  }

  /** The rollout's state, waves with per-step counts, and overall counts. */
  static JsonObject toJson(Rollout r) {
    List<Map<Step, Integer>> perWave = new ArrayList<>();
    r.waves().forEach(w -> perWave.add(new EnumMap<>(Step.class)));
    Map<Step, Integer> total = new EnumMap<>(Step.class);
    for (Member m : r.members().values()) {
      perWave.get(m.wave()).merge(m.step(), 1, Integer::sum);
      total.merge(m.step(), 1, Integer::sum);
    }
    JsonArray waves = new JsonArray();
    for (Wave w : r.waves()) {
      Map<Step, Integer> c = perWave.get(w.index());
      waves.add(
          counts(c)
              .put("name", w.name())
              .put("state", w.state().name())
              .put("clusters", c.values().stream().mapToInt(Integer::intValue).sum())
              .put("openedAt", w.openedAt() == null ? null : w.openedAt().toString())
              .put("soakingSince", w.soakingSince() == null ? null : w.soakingSince().toString())
              .put("completedAt", w.completedAt() == null ? null : w.completedAt().toString()));
    }
    return new JsonObject()
        .put("id", r.id())
        .put("subscription", r.subscription())
        .put("targetVersion", r.targetVersion())
        .put("state", r.phase().name())
        .put("message", r.message())
        .put("strategy", r.strategy().toJson())
        .put("waves", waves)
        .put("counts", counts(total).put("clusters", r.members().size()));
  }

  private static JsonObject counts(Map<Step, Integer> c) {
    return new JsonObject()
        .put("pending", c.getOrDefault(Step.Pending, 0))
        .put("progressing", c.getOrDefault(Step.Progressing, 0))
        .put("succeeded", c.getOrDefault(Step.Succeeded, 0))
        .put("failed", c.getOrDefault(Step.Failed, 0))
        .put("blocked", c.getOrDefault(Step.Blocked, 0))
        .put("rolledBack", c.getOrDefault(Step.RolledBack, 0))
        .put("stillFailed", c.getOrDefault(Step.StillFailed, 0));
  }

  /**
   * Ids of rollouts of {@code teams} (null: all), newest first; the cursor is (startedAt, id) of
   * the last one.
   */
  Future<List<Row>> list(
      SqlClient conn,
      String subscription,
      String state,
      String afterId,
      OffsetDateTime afterStarted,
      int limit,
      String[] teams) {
    return conn.preparedQuery(LIST)
        .execute(Tuple.of(subscription, state, afterId, afterStarted, limit, teams))
        .map(
            rows -> {
              List<Row> out = new ArrayList<>();
              rows.forEach(out::add);
              return out;
            });
  }

  private static final String AGENT_REPORTS =
      "SELECT cluster, target_version, phase, reason, message, updated_at, "
          + "(SELECT e ->> 'message' FROM jsonb_array_elements(conditions) e WHERE e ->> 'type' = 'RequiresApproval' "
          + "LIMIT 1) AS waiting_for FROM subscription_status WHERE subscription = $1 AND cluster = ANY($2) AND NOT gone";
  private static final String CLUSTERS =
      "SELECT name, labels, status, last_seen FROM clusters WHERE name = ANY($1)";

  /**
   * An agent's last report: its JSON in the API, and the facts a {@link ClusterReason} is decided
   * from.
   */
  record AgentReport(JsonObject json, ClusterReason.Report facts) {}

  /**
   * What the agents of {@code clusters} last reported for the subscription (phase, reason,
   * message), by cluster.
   */
  static Future<Map<String, AgentReport>> agentReports(
      SqlClient conn, String subscription, List<String> clusters) {
    return conn.preparedQuery(AGENT_REPORTS)
        .execute(
            Tuple.tuple().addString(subscription).addArrayOfString(clusters.toArray(String[]::new)))
        .map(
            rows -> {
              Map<String, AgentReport> out = new HashMap<>();
              rows.forEach(
                  r -> {
                    OffsetDateTime since = r.getOffsetDateTime("updated_at");
                    out.put(
                        r.getString("cluster"),
                        new AgentReport(
                            new JsonObject()
                                .put("targetVersion", r.getString("target_version"))
                                .put("phase", r.getString("phase"))
                                .put("reason", r.getString("reason"))
                                .put("message", r.getString("message")),
                            new ClusterReason.Report(
                                r.getString("phase"),
                                r.getString("waiting_for"),
                                since == null ? null : since.toInstant(),
                                r.getString("target_version"),
                                r.getString("reason"),
                                r.getString("message"))));
                  });
              return out;
            });
  }

  /** What a reason is decided from about the cluster itself: its labels and its connection. */
  record ClusterFacts(Map<String, String> labels, ClusterReason.Connection connection) {}

  /** The labels and connection of {@code clusters}, by cluster. */
  static Future<Map<String, ClusterFacts>> clusterFacts(SqlClient conn, List<String> clusters) {
    return conn.preparedQuery(CLUSTERS)
        .execute(Tuple.tuple().addArrayOfString(clusters.toArray(String[]::new)))
        .map(
            rows -> {
              Map<String, ClusterFacts> out = new HashMap<>();
              rows.forEach(
                  r -> {
                    OffsetDateTime seen = r.getOffsetDateTime("last_seen");
                    out.put(
                        r.getString("name"),
                        new ClusterFacts(
                            CalendarLoader.labels(r.getJsonObject("labels")),
                            new ClusterReason.Connection(
                                r.getString("status"), seen == null ? null : seen.toInstant())));
                  });
              return out;
            });
  }

  /**
   * A page of a rollout's clusters, optionally of one step, ordered by wave then name: at most
   * {@code limit + 1} after ({@code afterWave}, {@code afterName}) (null: from the first).
   */
  static List<Member> members(
      Rollout r, String step, Integer afterWave, String afterName, int limit) {
    Comparator<Member> order = Comparator.comparingInt(Member::wave).thenComparing(Member::cluster);
    return r.members().values().stream()
        .filter(m -> step == null || m.step().name().equals(step))
        .filter(
            m ->
                afterWave == null
                    || m.wave() > afterWave
                    || (m.wave() == afterWave && m.cluster().compareTo(afterName) > 0))
        .sorted(order)
        .limit(limit + 1L)
        .toList();
  }

  /**
   * One cluster of a rollout with its agent's last report ({@code report}: null when it has not
   * reported) and the reason it is not moving ({@code reason}: null when there is none to give);
   * the message is then the reason's (an approved cluster whose agent waits for a person says so,
   * not "approved for").
   */
  static JsonObject cluster(Rollout r, Member m, AgentReport report, ClusterReason reason) {
    String message = reason == null ? m.message() : reason.message();
    return new JsonObject()
        .put("name", m.cluster())
        .put("wave", r.waves().get(m.wave()).name())
        .put("state", m.step().name())
        .put("previousVersion", m.previousVersion())
        .put("approvedVersion", m.approvedVersion())
        .put("approvedAt", m.approvedAt() == null ? null : m.approvedAt().toString())
        .put("message", message)
        .put("reason", reason == null ? null : reason.toJson())
        .put("report", report == null ? null : report.json());
  }
}
