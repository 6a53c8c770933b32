package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.preflight.PreflightStore;
import io.olmstead.controlplane.preflight.PreflightStore.Verdict;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.olmstead.controlplane.subscription.SubscriptionStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rollout engine's preflight hook (I/O only; the decision is {@link PreflightView}'s): before a
 * step, the pending clusters of the wave that opens next are asked for a preflight of the target
 * through their desired state (once per rollout; requester = the rollout's id), and the verdicts
 * known so far are handed to the step with the control plane's own findings on those clusters (the
 * subscription's maturity requirements, removed APIs; {@link RolloutMaturity}).
 */
final class PreflightGate {
  private final PreflightStore store = new PreflightStore();
  private final SubscriptionStore subscriptions = new SubscriptionStore();
  private final RolloutMaturity maturity;

  PreflightGate(RolloutMaturity maturity) {
    this.maturity = maturity;
  }

  Future<PreflightView> prepare(SqlClient client, Rollout rollout, Instant now) {
    return agents(client, rollout, now)
        .compose(
            view ->
                view.policy().mode() == PreflightPolicy.Mode.Off || view.verdicts().isEmpty()
                    ? Future.succeededFuture(view)
                    : subscriptions
                        .get(client, rollout.subscription())
                        .compose(
                            sub ->
                                sub.isEmpty()
                                    ? Future.succeededFuture(view)
                                    : maturity
                                        .findings(
                                            client,
                                            sub.get().spec(),
                                            rollout.targetVersion(),
                                            pendingOfNextWave(rollout))
                                        .map(
                                            checks ->
                                                new PreflightView(
                                                    view.policy(), view.verdicts(), checks))));
  }

  /** The agents' verdicts, asked for the pending clusters that have none yet. */
  private Future<PreflightView> agents(SqlClient client, Rollout rollout, Instant now) {
    PreflightPolicy policy = rollout.strategy().preflight();
    if (policy.mode() == PreflightPolicy.Mode.Off || rollout.phase() != Phase.Progressing) {
      return Future.succeededFuture(PreflightView.OFF);
    }
    List<String> pending = pendingOfNextWave(rollout);
    if (pending.isEmpty()) {
      return Future.succeededFuture(new PreflightView(policy, Map.of()));
    }
    return store
        .verdicts(client, rollout.subscription(), rollout.targetVersion(), rollout.id())
        .compose(
            known -> {
              List<String> ask = pending.stream().filter(c -> !known.containsKey(c)).toList();
              if (ask.isEmpty()) {
                return Future.succeededFuture(new PreflightView(policy, known));
              }
              Map<String, Verdict> all = new HashMap<>(known);
              ask.forEach(c -> all.put(c, new Verdict(now, null, null, null)));
              return store
                  .request(
                      client,
                      rollout.subscription(),
                      rollout.targetVersion(),
                      null,
                      rollout.id(),
                      ask,
                      null)
                  .map(v -> new PreflightView(policy, all));
            });
  }

  /**
   * The pending clusters of the first wave that has not succeeded (the one the step opens or
   * approves in) and of the waves before it (a promoted wave's clusters waiting for a window,
   * clusters that joined mid-rollout).
   */
  static List<String> pendingOfNextWave(Rollout rollout) {
    int wave =
        rollout.waves().stream()
            .filter(w -> w.state() != WaveState.Succeeded)
            .mapToInt(w -> w.index())
            .findFirst()
            .orElse(Integer.MAX_VALUE);
    return rollout.members().values().stream()
        .filter(m -> m.wave() <= wave && m.step() == Step.Pending)
        .map(Member::cluster)
        .toList();
  }
}
