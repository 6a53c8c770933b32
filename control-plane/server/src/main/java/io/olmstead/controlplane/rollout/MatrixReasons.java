package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.subscription.PolicyVersions;
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
 * Why a fleet-matrix cell (one cluster, one subscription) is not at its target, in the rollouts'
 * vocabulary ({@link ClusterReason}). A cluster that is a member of an active rollout of the
 * subscription gets the rollout's reason, by the same decision as the rollout's clusters ({@link
 * ClusterReason#ofMember}: {@code EdgeAtRisk}, {@code PreflightBlocked}, {@code Disconnected},
 * {@code Failed}, {@code WaitingForApproval}, {@code Frozen}, {@code OutsideWindow}); a cluster the
 * subscription's latest rollout ended holding (it ended {@code SucceededWithExceptions}) keeps what
 * the engine held it on ({@link ClusterReason#held}). A cell the desired state holds where it runs
 * outside rollouts, its next edge being at risk ({@code subscription_edge_holds}), is {@code
 * EdgeAtRisk} naming the risk. Otherwise: {@code Disconnected (since T)} first (the report is stale
 * and nothing moves until the agent returns), then {@code WaitingForApproval}, {@code Failed (agent
 * reason)}, and {@code BehindPolicy} for a cluster settled at its target below the version the
 * subscription's declared policy leads to ({@link PolicyVersions}).
 */
public final class MatrixReasons {
  // the members of the subscription's active rollouts, and the held members (Pending or Blocked) of
  // its latest rollout
  // when that ended SucceededWithExceptions: its approvals still keep them where they were held
  private static final String MEMBERS =
      "SELECT r.subscription, r.target_version, r.state IN ('Progressing', 'Paused') "
          + "AS active, rc.cluster, rc.wave, rc.step, rc.message, "
          + "(r.strategy ->> 'maintenanceWindows') IS DISTINCT FROM 'Ignore' AS calendar FROM rollouts r "
          + "JOIN rollout_clusters rc ON rc.rollout_id = r.id WHERE r.subscription = ANY($1) AND rc.cluster = ANY($2) "
          + "AND (r.state IN ('Progressing', 'Paused') OR (r.state = 'SucceededWithExceptions' "
          + "AND rc.step IN ('Pending', 'Blocked') AND r.started_at = (SELECT max(l.started_at) FROM rollouts l "
          + "WHERE l.subscription = r.subscription)))";
  // the subscriptions held outside rollouts where they run because their next edge is at risk (V56)
  private static final String EDGE_HOLDS =
      "SELECT cluster, subscription, risk_id, message, held_at "
          + "FROM subscription_edge_holds WHERE subscription = ANY($1) AND cluster = ANY($2)";
  private static final CalendarLoader CALENDARS = new CalendarLoader();

  private MatrixReasons() {}

  /**
   * What is known of one cell: the cluster's connection and labels, and the agent's last report.
   */
  public record Cell(
      String cluster,
      String subscription,
      String clusterStatus,
      Instant lastSeen,
      JsonObject labels,
      String installedVersion,
      String targetVersion,
      String phase,
      String agentReason,
      String agentMessage,
      String waitingFor,
      Instant updatedAt) {
    /**
     * Installed and Succeeded at the version the control plane asks for (or with no version asked
     * yet).
     */
    public boolean atTarget() {
      return "Succeeded".equals(phase)
          && (targetVersion == null || Objects.equals(installedVersion, targetVersion));
    }

    String key() {
      return MatrixReasons.key(cluster, subscription);
    }
  }

  /** The key of a cell in {@link #of}'s answer. */
  public static String key(String cluster, String subscription) {
    return cluster + "/" + subscription;
  }

  /**
   * The cluster's membership of a rollout of the cell's subscription: its member, the rollout's
   * target, whether the rollout is active (else it ended with the member held) and respects the
   * calendar.
   */
  record Membership(Member member, String target, boolean active, boolean calendar) {}

  /**
   * The reason of each cell of {@code cells} not at its target (or not yet moved by an active
   * rollout) that has one, as JSON by {@link #key}: one query for the active rollouts' members
   * among them, the subscriptions' policy versions, and the calendar only when one of them is a
   * Pending member of a rollout that respects it.
   */
  public static Future<Map<String, JsonObject>> of(SqlClient conn, List<Cell> cells, Instant now) {
    if (cells.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    String[] subs = cells.stream().map(Cell::subscription).distinct().toArray(String[]::new);
    String[] clusters = cells.stream().map(Cell::cluster).distinct().toArray(String[]::new);
    Future<Map<String, Membership>> members =
        conn.preparedQuery(MEMBERS)
            .execute(Tuple.of((Object) subs, (Object) clusters))
            .map(
                rows -> {
                  Map<String, Membership> out = new HashMap<>();
                  for (Row r : rows) {
                    Member m =
                        new Member(
                            r.getString("cluster"),
                            r.getInteger("wave"),
                            Step.valueOf(r.getString("step")),
                            null,
                            null,
                            null,
                            r.getString("message"));
                    out.put(
                        key(m.cluster(), r.getString("subscription")),
                        new Membership(
                            m,
                            r.getString("target_version"),
                            r.getBoolean("active"),
                            r.getBoolean("calendar")));
                  }
                  return out;
                });
    Future<Map<String, String>> policies = PolicyVersions.of(conn, subs);
    Future<Map<String, ClusterReason>> edgeHolds =
        conn.preparedQuery(EDGE_HOLDS)
            .execute(Tuple.of((Object) subs, (Object) clusters))
            .map(
                rows -> {
                  Map<String, ClusterReason> out = new HashMap<>();
                  for (Row r : rows) {
                    out.put(
                        key(r.getString("cluster"), r.getString("subscription")),
                        ClusterReason.edgeHeld(
                            r.getString("risk_id"),
                            r.getOffsetDateTime("held_at").toInstant(),
                            r.getString("message")));
                  }
                  return out;
                });
    return Future.all(members, policies, edgeHolds)
        .compose(
            v -> {
              boolean needsCalendar =
                  members.result().values().stream()
                      .anyMatch(
                          m -> m.active() && m.calendar() && m.member().step() == Step.Pending);
              Future<MaintenanceCalendar> calendar =
                  needsCalendar ? CALENDARS.calendar(conn) : Future.succeededFuture(null);
              return calendar.map(
                  cal -> {
                    Map<String, JsonObject> out = new HashMap<>();
                    for (Cell cell : cells) {
                      Membership m = members.result().get(cell.key());
                      ClusterReason reason =
                          reason(
                              cell,
                              m,
                              m != null && m.calendar() ? cal : null,
                              policies.result().get(cell.subscription()),
                              edgeHolds.result().get(cell.key()),
                              now);
                      if (reason != null) {
                        out.put(cell.key(), reason.toJson());
                      }
                    }
                    return out;
                  });
            });
  }

  /**
   * The reason of one cell ({@code membership}: the cluster's in an active rollout, null outside
   * any; {@code calendar}: null unless that rollout respects it; {@code policy}: the version the
   * subscription's declared policy leads to, null when unknown); null when the cell is at its
   * target or no reason is known.
   */
  static ClusterReason reason(
      Cell cell, Membership membership, MaintenanceCalendar calendar, String policy, Instant now) {
    return reason(cell, membership, calendar, policy, null, now);
  }

  /**
   * As {@link #reason(Cell, Membership, MaintenanceCalendar, String, Instant)}, with {@code
   * edgeHold}: the cell's {@code EdgeAtRisk} when the desired state keeps it where it runs outside
   * any rollout (null: not held). An active rollout's decision comes first; then {@code
   * Disconnected} of a held cell (its hold is released only when it is published again), then the
   * hold before everything else, since the held cell is at the version the control plane asks for.
   */
  static ClusterReason reason(
      Cell cell,
      Membership membership,
      MaintenanceCalendar calendar,
      String policy,
      ClusterReason edgeHold,
      Instant now) {
    ClusterReason.Report report =
        new ClusterReason.Report(
            cell.phase(),
            cell.waitingFor(),
            cell.updatedAt(),
            cell.targetVersion(),
            cell.agentReason(),
            cell.agentMessage());
    Map<String, String> labels =
        CalendarLoader.labels(cell.labels() == null ? new JsonObject() : cell.labels());
    ClusterReason.Connection connection =
        new ClusterReason.Connection(cell.clusterStatus(), cell.lastSeen());
    if (membership != null && membership.active()) {
      // the rollout's own decision: a cluster it has not moved yet is not at its target, whatever
      // its agent reports
      return ClusterReason.ofMember(
          membership.member(), membership.target(), report, connection, calendar, labels, now);
    }
    if (edgeHold != null) {
      // a hold is released only when the cluster is published again: an away cluster says so first
      return connection.disconnected() ? ClusterReason.disconnected(cell.lastSeen()) : edgeHold;
    }
    ClusterReason held = membership == null ? null : ClusterReason.held(membership.member());
    if (held != null) {
      return held;
    }
    // settled where the control plane asks: nothing to say unless that is below the declared policy
    ClusterReason behind =
        cell.atTarget() ? ClusterReason.behindPolicy(cell.installedVersion(), policy) : null;
    if (cell.atTarget() && behind == null) {
      return null;
    }
    if (connection.disconnected()) {
      return ClusterReason.disconnected(cell.lastSeen());
    }
    if (behind != null) {
      return behind;
    }
    ClusterReason why = ClusterReason.of(Step.Progressing, report, null, labels, now);
    if (why != null) {
      return why;
    }
    return ClusterReason.FAILED.equals(cell.phase())
        ? ClusterReason.failed(cell.agentReason(), cell.agentMessage(), cell.updatedAt())
        : null;
  }
}
