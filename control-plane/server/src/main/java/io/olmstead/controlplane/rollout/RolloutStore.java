package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.hypershift.HostedLabels;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.Wave;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * SQL of the rollout tables: load a rollout whole, write back what a step or command changed (one
 * transaction).
 */
final class RolloutStore {
  private static final String ROLLOUT =
      "SELECT id, subscription, target_version, strategy, state, accepted_failures, "
          + "promote_requested, message, version, team FROM rollouts WHERE id = $1";
  private static final String WAVES =
      "SELECT idx, name, state, opened_at, soaking_since, completed_at "
          + "FROM rollout_waves WHERE rollout_id = $1 ORDER BY idx";
  private static final String MEMBERS =
      "SELECT cluster, wave, step, previous_version, approved_version, approved_at, "
          + "message, prior_approval FROM rollout_clusters WHERE rollout_id = $1 ORDER BY wave, cluster";
  // which reported phase speaks to the cluster's step is decided in StepReports (semver order)
  private static final String REPORTS =
      "SELECT rc.cluster, c.status, s.installed_version, s.target_version, s.phase, "
          + "s.reason, s.message, s.updated_at, rc.previous_version, rc.approved_version, rc.approved_at, "
          + "EXISTS (SELECT 1 FROM jsonb_array_elements(s.conditions) e WHERE e->>'type' = 'Upgradeable' "
          + "AND e->>'status' = 'False') AS blocked, a.connected_at, c.labels FROM rollout_clusters rc "
          + "LEFT JOIN clusters c ON c.name = rc.cluster "
          + "LEFT JOIN agent_channel_state a ON a.cluster = rc.cluster "
          + "LEFT JOIN subscription_status s ON s.cluster = rc.cluster AND s.subscription = $2 "
          + "WHERE rc.rollout_id = $1";
  private static final String UPDATE_ROLLOUT =
      "UPDATE rollouts SET state = $3, accepted_failures = $4, "
          + "promote_requested = $5, message = $6, updated_at = now(), version = version + 1 "
          + "WHERE id = $1 AND version = $2";
  private static final String UPDATE_WAVE =
      "UPDATE rollout_waves SET state = $3, opened_at = $4, soaking_since = $5, "
          + "completed_at = $6 WHERE rollout_id = $1 AND idx = $2";
  private static final String UPDATE_MEMBER =
      "UPDATE rollout_clusters SET step = $3, approved_version = $4, "
          + "approved_at = $5, message = $6, updated_at = now() WHERE rollout_id = $1 AND cluster = $2";
  private static final String UPSERT_APPROVAL =
      "INSERT INTO rollout_approvals (subscription, cluster, version, "
          + "rollout_id) VALUES ($1, $2, $3, $4) ON CONFLICT (subscription, cluster) DO UPDATE SET version = "
          + "EXCLUDED.version, withheld = NULL, rollout_id = EXCLUDED.rollout_id, updated_at = now() "
          + "WHERE rollout_approvals.version IS DISTINCT FROM EXCLUDED.version";
  // a rollout that succeeded ends what it held back: the declared policy applies to every cluster
  // again (the engine
  // never writes the declared spec) and, for a pin, the approvals that held clusters to their waves
  // go (new clusters
  // then get the target; later pin changes apply). A follow or range policy may allow more than the
  // target: its
  // approvals stay, so the fleet does not jump past the target all at once; the next version change
  // or rollout
  // replaces them.
  private static final String RELEASE_APPLIED =
      "UPDATE subscriptions SET applied_version_kind = NULL, "
          + "applied_version_value = NULL, generation = generation + 1, updated_at = now() WHERE name = $1 "
          + "AND applied_version_kind IS NOT NULL RETURNING name";
  // a cluster held by its preflight keeps its approval at the version it ran (it must not follow
  // the moved pin)
  private static final String CLEAR_APPROVALS =
      "DELETE FROM rollout_approvals a USING subscriptions s "
          + "WHERE a.subscription = $1 AND s.name = $1 AND s.version_kind = 'pin' AND NOT EXISTS (SELECT 1 FROM "
          + "rollout_clusters rc WHERE rc.rollout_id = a.rollout_id AND rc.cluster = a.cluster AND rc.step = 'Blocked' "
          + "AND (rc.message LIKE 'Preflight%' OR rc.message LIKE 'ProviderFailed%'))";
  // a consumer held because its provider failed, on a cluster that ran nothing of it, has no
  // version to be kept at:
  // it stays withheld (uninstalled) there after the end, until a later rollout approves it or a new
  // declared version
  private static final String WITHHOLD =
      "INSERT INTO rollout_approvals (subscription, cluster, version, rollout_id, "
          + "withheld) SELECT $1, rc.cluster, NULL, rc.rollout_id, 'held by rollout ' || rc.rollout_id || ': ' "
          + "|| rc.message FROM rollout_clusters rc WHERE rc.rollout_id = $2 AND rc.step = 'Blocked' "
          + "AND rc.message LIKE 'ProviderFailed%' AND rc.previous_version IS NULL "
          + "ON CONFLICT (subscription, cluster) DO UPDATE SET version = NULL, withheld = EXCLUDED.withheld, "
          + "rollout_id = EXCLUDED.rollout_id, updated_at = now()";
  // a rollback of a cluster that was withheld before the rollout (V57) withholds it again
  private static final String RESTORE_WITHHELD =
      "UPDATE rollout_approvals a SET version = NULL, "
          + "withheld = rc.prior_withheld, updated_at = now() FROM rollout_clusters rc WHERE a.subscription = $1 "
          + "AND a.cluster = $2 AND a.rollout_id = $3 AND rc.rollout_id = $3 AND rc.cluster = $2 "
          + "AND rc.prior_withheld IS NOT NULL";
  private static final String WITHDRAW_APPROVAL =
      "DELETE FROM rollout_approvals WHERE subscription = $1 "
          + "AND cluster = $2 AND rollout_id = $3 AND version IS NOT NULL";
  private static final String GROUP =
      "SELECT r.id, r.group_index, r.subscription, r.target_version, r.state, "
          + "rc.cluster, rc.wave, rc.step, rc.message FROM rollouts r LEFT JOIN rollout_clusters rc ON rc.rollout_id = r.id "
          + "WHERE r.group_id = (SELECT group_id FROM rollouts WHERE id = $1) ORDER BY r.group_index";
  private static final String GROUP_IDS =
      "SELECT id FROM rollouts WHERE group_id = (SELECT group_id FROM rollouts "
          + "WHERE id = $1) ORDER BY group_index";
  // reason: the held or failed cluster's (V54 triggers put it on the webhook payload and the event
  // stream)
  private static final String HISTORY =
      "INSERT INTO rollout_history (rollout_id, kind, wave, cluster, message, actor, "
          + "reason) VALUES ($1, $2, $3, $4, $5, $6, $7)";

  /**
   * A loaded rollout with the row version it was read at and the team of its subscription when it
   * was created.
   */
  record Loaded(Rollout rollout, long version, String team) {}

  Future<Optional<Loaded>> load(SqlClient client, String id) {
    return client
        .preparedQuery(ROLLOUT)
        .execute(Tuple.of(id))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(Optional.empty());
              }
              Row r = rows.iterator().next();
              return client
                  .preparedQuery(WAVES)
                  .execute(Tuple.of(id))
                  .compose(
                      waveRows ->
                          client
                              .preparedQuery(MEMBERS)
                              .execute(Tuple.of(id))
                              .map(
                                  memberRows -> {
                                    List<Wave> waves = new ArrayList<>();
                                    for (Row w : waveRows) {
                                      waves.add(
                                          new Wave(
                                              w.getInteger("idx"),
                                              w.getString("name"),
                                              WaveState.valueOf(w.getString("state")),
                                              instant(w, "opened_at"),
                                              instant(w, "soaking_since"),
                                              instant(w, "completed_at")));
                                    }
                                    Map<String, Member> members = new LinkedHashMap<>();
                                    for (Row m : memberRows) {
                                      members.put(
                                          m.getString("cluster"),
                                          new Member(
                                              m.getString("cluster"),
                                              m.getInteger("wave"),
                                              Step.valueOf(m.getString("step")),
                                              m.getString("previous_version"),
                                              m.getString("approved_version"),
                                              instant(m, "approved_at"),
                                              m.getString("message"),
                                              m.getString("prior_approval")));
                                    }
                                    Rollout rollout =
                                        new Rollout(
                                            id,
                                            r.getString("subscription"),
                                            r.getString("target_version"),
                                            RolloutStrategy.fromJson(
                                                stored(r.getJsonObject("strategy"))),
                                            Phase.valueOf(r.getString("state")),
                                            waves,
                                            members,
                                            r.getInteger("accepted_failures"),
                                            r.getBoolean("promote_requested"),
                                            r.getString("message"));
                                    return Optional.of(
                                        new Loaded(
                                            rollout, r.getLong("version"), r.getString("team")));
                                  }));
            });
  }

  /**
   * A strategy stored before preflights existed (no {@code preflight} key) keeps running without
   * them.
   */
  private static JsonObject stored(JsonObject strategy) {
    return strategy.containsKey("preflight") ? strategy : strategy.copy().put("preflight", "Off");
  }

  /**
   * Each member's last report: connected or not, installed version, phase, and Upgradeable=False.
   */
  Future<Map<String, Report>> reports(SqlClient client, Rollout rollout) {
    return client
        .preparedQuery(REPORTS)
        .execute(Tuple.of(rollout.id(), rollout.subscription()))
        .map(
            rows -> {
              Map<String, Report> out = new HashMap<>();
              for (Row r : rows) {
                boolean aboutThisStep =
                    StepReports.aboutThisStep(
                        r.getString("target_version"),
                        r.getString("installed_version"),
                        r.getString("previous_version"),
                        r.getString("approved_version"),
                        instant(r, "updated_at"),
                        instant(r, "approved_at"));
                Instant reportedAt = instant(r, "updated_at");
                Instant approvedAt = instant(r, "approved_at");
                boolean failedBefore =
                    !aboutThisStep
                        && RolloutMachine.FAILED.equals(r.getString("phase"))
                        && reportedAt != null
                        && approvedAt != null
                        && reportedAt.isBefore(approvedAt);
                out.put(
                    r.getString("cluster"),
                    new Report(
                        r.getString("status"),
                        r.getString("installed_version"),
                        aboutThisStep ? r.getString("phase") : null,
                        withReason(r.getString("reason"), r.getString("message")),
                        Boolean.TRUE.equals(r.getBoolean("blocked")),
                        instant(r, "connected_at"),
                        failedBefore,
                        HostedLabels.paused(r.getJsonObject("labels"))));
              }
              return out;
            });
  }

  /**
   * The agent's message with its reason in front (e.g. {@code InstallCheckFailed: install failed:
   * ...}).
   */
  static String withReason(String reason, String message) {
    if (reason == null || reason.isBlank()) {
      return message;
    }
    return message == null || message.isBlank() ? reason : reason + ": " + message;
  }

  /**
   * Inserts a new rollout of a subscription of {@code team} with its waves and members (Pending)
   * and pins every member at its current version.
   */
  Future<Void> insert(
      SqlConnection tx,
      Rollout r,
      String team,
      List<String> fromVersions,
      Map<String, String> held,
      String actor) {
    Tuple row =
        Tuple.of(
            r.id(),
            r.subscription(),
            r.targetVersion(),
            fromVersions.toArray(String[]::new),
            r.strategy().toJson(),
            r.phase().name(),
            actor,
            team);
    List<Tuple> waves = new ArrayList<>();
    for (Wave w : r.waves()) {
      waves.add(Tuple.of(r.id(), w.index(), w.name(), w.state().name()));
    }
    List<Tuple> members = new ArrayList<>();
    List<Tuple> pins = new ArrayList<>();
    for (Member m : r.members().values()) {
      members.add(
          Tuple.of(
              r.id(),
              m.cluster(),
              m.wave(),
              m.step().name(),
              m.previousVersion(),
              r.subscription()));
      if (m.previousVersion() != null) {
        pins.add(Tuple.of(r.subscription(), m.cluster(), m.previousVersion(), r.id()));
      }
    }
    List<Transition> created =
        new ArrayList<>(
            List.of(
                new Transition(
                    "Created",
                    null,
                    null,
                    "target "
                        + r.targetVersion()
                        + ", "
                        + r.waves().size()
                        + " waves, "
                        + r.members().size()
                        + " clusters")));
    new TreeMap<>(held)
        .forEach(
            (cluster, version) -> {
              pins.add(Tuple.of(r.subscription(), cluster, version, r.id()));
              created.add(
                  new Transition(
                      "ClusterExcluded",
                      null,
                      cluster,
                      "left out (Upgradeable=False or paused); held at " + version));
            });
    Future<?> f =
        tx.preparedQuery(
                "INSERT INTO rollouts (id, subscription, target_version, from_versions, strategy, "
                    + "state, created_by, team) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
            .execute(row);
    if (!waves.isEmpty()) {
      f =
          f.compose(
              v ->
                  tx.preparedQuery(
                          "INSERT INTO rollout_waves (rollout_id, idx, name, state) "
                              + "VALUES ($1, $2, $3, $4)")
                      .executeBatch(waves));
    }
    if (!members.isEmpty()) {
      // the approval each had before, or the reason it was withheld (a rollback of a cluster that
      // ran nothing returns it there), read before the pins
      f =
          f.compose(
              v ->
                  tx.preparedQuery(
                          "INSERT INTO rollout_clusters (rollout_id, cluster, wave, step, "
                              + "previous_version, prior_approval, prior_withheld) VALUES ($1, $2, $3, $4, $5, "
                              + "(SELECT version FROM rollout_approvals WHERE subscription = $6 AND cluster = $2), "
                              + "(SELECT withheld FROM rollout_approvals WHERE subscription = $6 AND cluster = $2))")
                      .executeBatch(members));
    }
    if (!pins.isEmpty()) {
      // a follow/range policy must not move clusters ahead of their wave: hold them where they are
      f = f.compose(v -> tx.preparedQuery(UPSERT_APPROVAL).executeBatch(pins));
    }
    return f.compose(v -> history(tx, r.id(), created, actor));
  }

  /**
   * Writes what changed from {@code before} to {@code after}, only if the rollout is still at
   * {@code version} (false otherwise: someone else wrote first; nothing is written).
   */
  Future<Boolean> save(
      SqlConnection tx,
      Rollout before,
      long version,
      Rollout after,
      List<Transition> transitions,
      String actor) {
    return tx.preparedQuery(UPDATE_ROLLOUT)
        .execute(
            Tuple.of(
                after.id(),
                version,
                after.phase().name(),
                after.acceptedFailures(),
                after.promoteRequested(),
                after.message()))
        .compose(
            updated -> {
              if (updated.rowCount() != 1) {
                return Future.succeededFuture(false);
              }
              List<Tuple> waves = new ArrayList<>();
              for (int i = 0; i < after.waves().size(); i++) {
                Wave w = after.waves().get(i);
                if (!w.equals(before.waves().get(i))) {
                  waves.add(
                      Tuple.of(
                          after.id(),
                          w.index(),
                          w.state().name(),
                          odt(w.openedAt()),
                          odt(w.soakingSince()),
                          odt(w.completedAt())));
                }
              }
              List<Tuple> members = new ArrayList<>();
              List<Tuple> approvals = new ArrayList<>();
              List<Tuple> withdrawn = new ArrayList<>();
              for (Member m : after.members().values()) {
                Member old = before.members().get(m.cluster());
                if (!m.equals(old)) {
                  members.add(
                      Tuple.of(
                          after.id(),
                          m.cluster(),
                          m.step().name(),
                          m.approvedVersion(),
                          odt(m.approvedAt()),
                          m.message()));
                  if (m.approvedVersion() != null
                      && (old == null || !m.approvedVersion().equals(old.approvedVersion()))) {
                    approvals.add(
                        Tuple.of(
                            after.subscription(), m.cluster(), m.approvedVersion(), after.id()));
                  } else if (m.approvedVersion() == null
                      && old != null
                      && old.approvedVersion() != null) {
                    withdrawn.add(Tuple.of(after.subscription(), m.cluster(), after.id()));
                  }
                }
              }
              Future<?> f = Future.succeededFuture();
              if (!waves.isEmpty()) {
                f = f.compose(v -> tx.preparedQuery(UPDATE_WAVE).executeBatch(waves));
              }
              if (!members.isEmpty()) {
                f = f.compose(v -> tx.preparedQuery(UPDATE_MEMBER).executeBatch(members));
              }
              if (!approvals.isEmpty()) {
                f = f.compose(v -> tx.preparedQuery(UPSERT_APPROVAL).executeBatch(approvals));
              }
              if (!withdrawn.isEmpty()) {
                // a rollback of a cluster that had no approval before: the subscription's own
                // policy applies again (a withheld one is withheld again)
                f =
                    f.compose(v -> tx.preparedQuery(RESTORE_WITHHELD).executeBatch(withdrawn))
                        .compose(v -> tx.preparedQuery(WITHDRAW_APPROVAL).executeBatch(withdrawn));
              }
              List<Transition> written = transitions;
              if (after.phase().completed() && !before.phase().completed()) {
                written = new ArrayList<>(transitions);
                written.add(
                    new Transition(
                        "PolicyUpdated",
                        null,
                        null,
                        "subscription "
                            + after.subscription()
                            + "'s declared version applies to every cluster (a pin's rollout approvals are cleared)"));
                for (Member m : after.members().values()) {
                  if (withheld(m)) {
                    written.add(
                        new Transition(
                            "ClusterWithheld",
                            null,
                            m.cluster(),
                            "stays uninstalled here until the "
                                + "rollout is retried or another version is declared ("
                                + m.message()
                                + ")"));
                  }
                }
                f =
                    f.compose(
                            v ->
                                tx.preparedQuery(RELEASE_APPLIED)
                                    .execute(Tuple.of(after.subscription())))
                        .compose(
                            released ->
                                released.size() == 0
                                    ? Future.succeededFuture()
                                    : releaseAudited(tx, after, actor))
                        .compose(
                            v ->
                                tx.preparedQuery(WITHHOLD)
                                    .execute(Tuple.of(after.subscription(), after.id())))
                        .compose(
                            v ->
                                tx.preparedQuery(CLEAR_APPROVALS)
                                    .execute(Tuple.of(after.subscription())));
              }
              List<Transition> history = written;
              return f.compose(v -> history(tx, after.id(), history, actor)).map(true);
            });
  }

  /**
   * A consumer held by its provider's failure on a cluster that ran nothing of it: withheld there
   * at the end.
   */
  static boolean withheld(Member m) {
    return m.step() == Step.Blocked
        && m.previousVersion() == null
        && m.message() != null
        && m.message().startsWith(TargetGroup.PROVIDER_FAILED + ": ");
  }

  /**
   * The audit entry of the declared version the rollout's success let apply, in the step's
   * transaction.
   */
  private static Future<Void> releaseAudited(SqlConnection tx, Rollout after, String actor) {
    return Audit.record(
        tx,
        new AuditEntry(
            actor,
            "subscription.applied",
            "subscriptions/" + after.subscription(),
            AuditEntry.SUCCESS,
            new JsonObject().put("version", after.targetVersion()).put("rollout", after.id()),
            null));
  }

  Future<Void> history(SqlConnection tx, String id, List<Transition> transitions, String actor) {
    if (transitions.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Tuple> rows = new ArrayList<>();
    for (Transition t : transitions) {
      ClusterReason reason = ClusterReason.ofTransition(t);
      rows.add(
          Tuple.of(
              id,
              t.kind(),
              t.wave(),
              t.cluster(),
              t.message(),
              actor,
              reason == null
                  ? null
                  : new JsonObject()
                      .put("code", reason.code())
                      .put("subject", reason.subject())
                      .put("message", reason.message())));
    }
    // the event stream hears of the change from the rollouts trigger of V8 (and of V54 for a
    // reason), at commit
    return tx.preparedQuery(HISTORY).executeBatch(rows).mapEmpty();
  }

  /**
   * The targets of rollout {@code id}'s group as it sees them ({@link TargetGroup#NONE}: one
   * subscription).
   */
  Future<TargetGroup> group(SqlClient client, String id) {
    return client
        .preparedQuery(GROUP)
        .execute(Tuple.of(id))
        .map(
            rows -> {
              Map<String, TargetGroup.Row> byId = new LinkedHashMap<>();
              for (Row r : rows) {
                TargetGroup.Row row =
                    byId.computeIfAbsent(
                        r.getString("id"),
                        k ->
                            new TargetGroup.Row(
                                r.getInteger("group_index"),
                                k,
                                r.getString("subscription"),
                                r.getString("target_version"),
                                Phase.valueOf(r.getString("state")),
                                new HashMap<>()));
                if (r.getString("cluster") != null) {
                  row.members()
                      .put(
                          r.getString("cluster"),
                          new TargetGroup.Member(
                              r.getInteger("wave"),
                              Step.valueOf(r.getString("step")),
                              r.getString("message")));
                }
              }
              TargetGroup.Row own = byId.get(id);
              return own == null
                  ? TargetGroup.NONE
                  : new TargetGroup(own.index(), new ArrayList<>(byId.values()));
            });
  }

  /**
   * The ids of rollout {@code id}'s group in dependency order; empty for a rollout of one
   * subscription.
   */
  Future<List<String>> groupIds(SqlClient client, String id) {
    return client
        .preparedQuery(GROUP_IDS)
        .execute(Tuple.of(id))
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString("id")));
              return out;
            });
  }

  /** Ids of the rollouts the engine must step. */
  Future<List<String>> active(SqlClient client) {
    return client
        .query(
            "SELECT id FROM rollouts WHERE state IN ('Progressing', 'Paused') "
                + "ORDER BY started_at, group_id, group_index, id")
        .execute()
        .map(
            rows -> {
              List<String> out = new ArrayList<>();
              rows.forEach(r -> out.add(r.getString("id")));
              return out;
            });
  }

  /** Transition kinds and clusters, bounded, for the audit entry of a step. */
  static JsonArray summary(List<Transition> transitions) {
    JsonArray out = new JsonArray();
    for (Transition t : transitions.subList(0, Math.min(50, transitions.size()))) {
      out.add(
          t.kind()
              + (t.wave() == null ? "" : " " + t.wave())
              + (t.cluster() == null ? "" : " " + t.cluster()));
    }
    return out;
  }

  private static Instant instant(Row row, String column) {
    OffsetDateTime t = row.getOffsetDateTime(column);
    return t == null ? null : t.toInstant();
  }

  private static OffsetDateTime odt(Instant i) {
    return i == null ? null : i.atOffset(ZoneOffset.UTC);
  }
}
