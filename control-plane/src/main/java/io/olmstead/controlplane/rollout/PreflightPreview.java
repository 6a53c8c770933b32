package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.preflight.PreflightStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.time.Duration;
import java.util.List;

/**
 * The preview's preflight: asks every participating cluster to check the target (requester {@code preview}; a check
 * younger than {@link #RENEW_AFTER} is not asked again, so polling the preview does not flood the agents) and reads
 * the verdicts known so far; clusters whose agent has not answered yet show {@code Pending}.
 */
final class PreflightPreview {
  static final String REQUESTER = "preview";
  static final Duration RENEW_AFTER = Duration.ofSeconds(60);
  private final PreflightStore store = new PreflightStore();

  Future<PreflightView> verdicts(SqlClient client, RolloutPlanning.Plan plan, RolloutPlanning.Request request) {
    PreflightPolicy policy = request.strategy().preflight();
    if (policy.mode() == PreflightPolicy.Mode.Off) {
      return Future.succeededFuture(PreflightView.OFF);
    }
    List<String> clusters = plan.waves().stream().flatMap(w -> w.clusters().stream()).toList();
    return store.request(client, plan.subscription().name(), request.targetVersion(), null, REQUESTER, clusters,
            RENEW_AFTER)
        .compose(v -> store.verdicts(client, plan.subscription().name(), request.targetVersion(), REQUESTER))
        .map(found -> new PreflightView(policy, found));
  }
}
