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
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Clusters that join a subscription's placement while its rollout runs: they are not in any wave, so they get the
 * version of the last completed wave (the target once a wave succeeded, else the lowest version the rollout started
 * from) as their approved version, recorded in the history and the audit log.
 */
final class RolloutJoiners {
  // retired clusters and paused HostedClusters never join a running rollout
  private static final String NEWCOMERS = "SELECT c.name, c.labels FROM clusters c WHERE c.status <> 'retired' "
      + "AND NOT (c.labels @> '{\"hypershift.olmstead.io/paused\":\"true\"}') AND NOT EXISTS (SELECT 1 FROM "
      + "rollout_clusters rc WHERE rc.rollout_id = $1 AND rc.cluster = c.name) AND NOT EXISTS (SELECT 1 FROM "
      + "rollout_approvals a WHERE a.subscription = $2 AND a.cluster = c.name)";
  private static final String APPROVE = "INSERT INTO rollout_approvals (subscription, cluster, version, rollout_id) "
      + "VALUES ($1, $2, $3, $4) ON CONFLICT (subscription, cluster) DO NOTHING";

  private final Pool pool;
  private final RolloutStore store;
  private final SubscriptionStore subscriptions = new SubscriptionStore();

  RolloutJoiners(Pool pool, RolloutStore store) {
    this.pool = pool;
    this.store = store;
  }

  /** The version a newcomer gets now; empty when there is none to give yet. */
  static Optional<String> versionForNewcomers(Rollout r) {
    if (r.waves().stream().anyMatch(w -> w.state() == WaveState.Succeeded)) {
      return Optional.of(r.targetVersion());
    }
    return r.members().values().stream().map(Member::previousVersion).filter(Objects::nonNull)
        .filter(v -> Version.tryParse(v).isPresent())
        .min(Comparator.comparing(v -> Version.tryParse(v).orElseThrow()));
  }

  Future<Void> admit(Rollout r) {
    Optional<String> version = versionForNewcomers(r);
    if (version.isEmpty() || !r.phase().active()) {
      return Future.succeededFuture();
    }
    return subscriptions.get(pool, r.subscription()).compose(sub -> {
      if (sub.isEmpty()) {
        return Future.succeededFuture();
      }
      return pool.preparedQuery(NEWCOMERS).execute(Tuple.of(r.id(), r.subscription())).compose(rows -> {
        List<String> joined = new ArrayList<>();
        for (Row row : rows) {
          Map<String, String> labels = new HashMap<>();
          JsonObject json = row.getJsonObject("labels");
          if (json != null) {
            json.forEach(e -> labels.put(e.getKey(), String.valueOf(e.getValue())));
          }
          if (Placements.selects(sub.get().spec(), row.getString("name"), labels)) {
            joined.add(row.getString("name"));
          }
        }
        if (joined.isEmpty()) {
          return Future.succeededFuture();
        }
        List<Tuple> approvals = new ArrayList<>();
        List<Transition> transitions = new ArrayList<>();
        for (String c : joined) {
          approvals.add(Tuple.of(r.subscription(), c, version.get(), r.id()));
          transitions.add(new Transition("ClusterJoined", null, c, "joined mid-rollout; approved " + version.get()));
        }
        return pool.withTransaction(tx -> tx.preparedQuery(APPROVE).executeBatch(approvals)
            .compose(v -> store.history(tx, r.id(), transitions, RolloutEngine.ACTOR))
            .compose(v -> Audit.record(tx, new AuditEntry(RolloutEngine.ACTOR, "rollout.join", "rollouts/" + r.id(),
                AuditEntry.SUCCESS, new JsonObject().put("version", version.get())
                    .put("clusters", new JsonArray(new ArrayList<>(joined.subList(0, Math.min(50, joined.size()))))),
                null))));
      });
    });
  }
}
