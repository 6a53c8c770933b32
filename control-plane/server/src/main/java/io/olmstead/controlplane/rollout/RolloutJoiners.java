package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.audit.Audit;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.olmstead.controlplane.subscription.Placements;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.olmstead.olmcore.semver.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Clusters that join a subscription's placement while its rollout runs become members of the
 * rollout, Pending in the wave it works on (never the canary wave of a rollout with more), so they
 * reach the target through the same steps as every member: inside their maintenance windows and
 * outside freezes, after a preflight. Until then they are held by their approval where they run (a
 * fresh cluster: at the lowest version the rollout started from), which is also where a rollback
 * returns them; recorded in the history and the audit log.
 */
final class RolloutJoiners {
  // retired clusters and paused HostedClusters never join a running rollout
  private static final String NEWCOMERS =
      "SELECT c.name, c.labels, s.installed_version FROM clusters c "
          + "LEFT JOIN subscription_status s ON s.subscription = $2 AND s.cluster = c.name AND NOT s.gone "
          + "WHERE c.status <> 'retired' "
          + "AND NOT (c.labels @> '{\"hypershift.olmstead.io/paused\":\"true\"}') AND NOT EXISTS (SELECT 1 FROM "
          + "rollout_clusters rc WHERE rc.rollout_id = $1 AND rc.cluster = c.name) AND NOT EXISTS (SELECT 1 FROM "
          + "rollout_approvals a WHERE a.subscription = $2 AND a.cluster = c.name)";
  private static final String MEMBER =
      "INSERT INTO rollout_clusters (rollout_id, cluster, wave, step, "
          + "previous_version, prior_approval) VALUES ($1, $2, $3, 'Pending', $4, $5) ON CONFLICT DO NOTHING";
  private static final String HOLD =
      "INSERT INTO rollout_approvals (subscription, cluster, version, rollout_id) "
          + "VALUES ($1, $2, $3, $4) ON CONFLICT (subscription, cluster) DO NOTHING";

  private final Pool pool;
  private final RolloutStore store;
  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final Function<SqlConnection, Future<Void>> fence;

  /**
   * {@code fence}: the first statement of the admitting transaction (the engine's, see {@code
   * LeaderLock#fence}).
   */
  RolloutJoiners(Pool pool, RolloutStore store, Function<SqlConnection, Future<Void>> fence) {
    this.fence = fence;
    this.pool = pool;
    this.store = store;
  }

  /**
   * Where a newcomer waits for its approval: the lowest version the rollout started from; empty
   * when none.
   */
  static Optional<String> holdVersion(Rollout r) {
    return r.members().values().stream()
        .map(Member::previousVersion)
        .filter(Objects::nonNull)
        .filter(v -> Version.tryParse(v).isPresent())
        .min(Comparator.comparing(v -> Version.tryParse(v).orElseThrow()));
  }

  /**
   * The wave a newcomer joins: the first that has not succeeded, but never the first (the canary)
   * of a rollout with several; -1 when every wave succeeded.
   */
  static int joinWave(Rollout r) {
    int first =
        r.waves().stream()
            .filter(w -> w.state() != WaveState.Succeeded)
            .mapToInt(w -> w.index())
            .findFirst()
            .orElse(-1);
    return first < 0 ? -1 : Math.max(first, Math.min(1, r.waves().size() - 1));
  }

  Future<Void> admit(Rollout r) {
    int wave = joinWave(r);
    if (wave < 0 || !r.phase().active()) {
      return Future.succeededFuture();
    }
    Optional<String> hold = holdVersion(r);
    return subscriptions
        .get(pool, r.subscription())
        .compose(
            sub -> {
              if (sub.isEmpty()) {
                return Future.succeededFuture();
              }
              return pool.preparedQuery(NEWCOMERS)
                  .execute(Tuple.of(r.id(), r.subscription()))
                  .compose(
                      rows -> {
                        List<Tuple> members = new ArrayList<>();
                        List<Tuple> holds = new ArrayList<>();
                        List<Transition> transitions = new ArrayList<>();
                        List<String> joined = new ArrayList<>();
                        String waveName = r.waves().get(wave).name();
                        for (Row row : rows) {
                          String name = row.getString("name");
                          if (!Placements.selects(
                              sub.get().spec(),
                              name,
                              CalendarLoader.labels(row.getJsonObject("labels")))) {
                            continue;
                          }
                          // held where it runs (never sent below it), or at the start version when
                          // it runs nothing yet
                          String installed = row.getString("installed_version");
                          Optional<String> at = installed != null ? Optional.of(installed) : hold;
                          joined.add(name);
                          members.add(Tuple.of(r.id(), name, wave, installed, at.orElse(null)));
                          at.ifPresent(v -> holds.add(Tuple.of(r.subscription(), name, v, r.id())));
                          transitions.add(
                              new Transition(
                                  "ClusterJoined",
                                  waveName,
                                  name,
                                  "joined mid-rollout"
                                      + at.map(v -> "; held at " + v).orElse("")
                                      + " until its wave approves it"));
                        }
                        if (joined.isEmpty()) {
                          return Future.succeededFuture();
                        }
                        JsonObject detail =
                            new JsonObject()
                                .put("wave", waveName)
                                .put(
                                    "clusters",
                                    new JsonArray(
                                        new ArrayList<>(
                                            joined.subList(0, Math.min(50, joined.size())))));
                        return pool.withTransaction(
                            tx ->
                                fence
                                    .apply(tx)
                                    .compose(f -> tx.preparedQuery(MEMBER).executeBatch(members))
                                    .compose(
                                        v ->
                                            holds.isEmpty()
                                                ? Future.succeededFuture()
                                                : tx.preparedQuery(HOLD).executeBatch(holds))
                                    .compose(
                                        v ->
                                            store.history(
                                                tx, r.id(), transitions, RolloutEngine.ACTOR))
                                    .compose(
                                        v ->
                                            Audit.record(
                                                tx,
                                                new AuditEntry(
                                                    RolloutEngine.ACTOR,
                                                    "rollout.join",
                                                    "rollouts/" + r.id(),
                                                    AuditEntry.SUCCESS,
                                                    detail,
                                                    null))));
                      });
            });
  }
}
