package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Why a fleet-matrix cell (one cluster, one subscription) is not at its target, in the rollouts' vocabulary
 * ({@link ClusterReason}): {@code Disconnected (since T)} first (the report is stale and nothing moves until the agent
 * returns), then what {@link ClusterReason#of} says for the cluster's step in an active rollout of the subscription
 * (outside any rollout the cluster is free to move, as a Progressing member is), then {@code Failed (agent reason)}.
 */
public final class MatrixReasons {
  private static final String MEMBERS = "SELECT r.subscription, rc.cluster, rc.step, "
      + "(r.strategy ->> 'maintenanceWindows') IS DISTINCT FROM 'Ignore' AS calendar FROM rollouts r "
      + "JOIN rollout_clusters rc ON rc.rollout_id = r.id WHERE r.state IN ('Progressing', 'Paused') "
      + "AND r.subscription = ANY($1) AND rc.cluster = ANY($2)";
  private static final CalendarLoader CALENDARS = new CalendarLoader();

  private MatrixReasons() {
  }

  /** What is known of one cell: the cluster's connection and labels, and the agent's last report. */
  public record Cell(String cluster, String subscription, String clusterStatus, Instant lastSeen, JsonObject labels,
      String installedVersion, String targetVersion, String phase, String agentReason, String agentMessage,
      String waitingFor, Instant updatedAt) {
    /** Installed and Succeeded at the version the control plane asks for (or with no version asked yet). */
    public boolean atTarget() {
      return "Succeeded".equals(phase) && (targetVersion == null || Objects.equals(installedVersion, targetVersion));
    }

    String key() {
      return MatrixReasons.key(cluster, subscription);
    }
  }

  /** The key of a cell in {@link #of}'s answer. */
  public static String key(String cluster, String subscription) {
    return cluster + "/" + subscription;
  }

  /** The cluster's membership of an active rollout of the cell's subscription. */
  record Membership(Step step, boolean calendar) {
  }

  /**
   * The reason of each cell of {@code cells} not at its target (or not yet moved by an active rollout) that has one, as
   * JSON by {@link #key}: one query for the active rollouts' members among them, and the calendar only when one of
   * them is a Pending member of a rollout that respects it.
   */
  public static Future<Map<String, JsonObject>> of(SqlClient conn, List<Cell> cells, Instant now) {
    if (cells.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    String[] subs = cells.stream().map(Cell::subscription).distinct().toArray(String[]::new);
    String[] clusters = cells.stream().map(Cell::cluster).distinct().toArray(String[]::new);
    return conn.preparedQuery(MEMBERS).execute(Tuple.of((Object) subs, (Object) clusters)).compose(rows -> {
      Map<String, Membership> members = new HashMap<>();
      for (Row r : rows) {
        members.put(key(r.getString("cluster"), r.getString("subscription")),
            new Membership(Step.valueOf(r.getString("step")), r.getBoolean("calendar")));
      }
      boolean needsCalendar = members.values().stream().anyMatch(m -> m.calendar() && m.step() == Step.Pending);
      Future<MaintenanceCalendar> calendar = needsCalendar ? CALENDARS.calendar(conn)
          : Future.succeededFuture(null);
      return calendar.map(cal -> {
        Map<String, JsonObject> out = new HashMap<>();
        for (Cell cell : cells) {
          Membership m = members.get(cell.key());
          ClusterReason reason = reason(cell, m == null ? null : m.step(), m != null && m.calendar() ? cal : null, now);
          if (reason != null) {
            out.put(cell.key(), reason.toJson());
          }
        }
        return out;
      });
    });
  }

  /**
   * The reason of one cell ({@code step}: the cluster's step in an active rollout, null outside any; {@code calendar}:
   * null unless that rollout respects it); null when the cell is at its target or no reason is known.
   */
  static ClusterReason reason(Cell cell, Step step, MaintenanceCalendar calendar, Instant now) {
    // a cluster an active rollout has not moved yet is not at the rollout's target, whatever its agent reports
    boolean held = step == Step.Pending || step == Step.Progressing;
    if (cell.atTarget() && !held) {
      return null;
    }
    if (ClusterReason.DISCONNECTED.equalsIgnoreCase(cell.clusterStatus())) {
      return ClusterReason.disconnected(cell.lastSeen());
    }
    ClusterReason.Report report = new ClusterReason.Report(cell.phase(), cell.waitingFor(), cell.updatedAt());
    ClusterReason why = ClusterReason.of(step == null ? Step.Progressing : step, report, calendar,
        CalendarLoader.labels(cell.labels() == null ? new JsonObject() : cell.labels()), now);
    if (why != null) {
      return why;
    }
    return ClusterReason.FAILED.equals(cell.phase())
        ? ClusterReason.failed(cell.agentReason(), cell.agentMessage(), cell.updatedAt()) : null;
  }
}
