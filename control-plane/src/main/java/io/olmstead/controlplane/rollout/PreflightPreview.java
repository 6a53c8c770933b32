package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.auth.Role;
import io.olmstead.controlplane.preflight.PreflightStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.time.Duration;
import java.util.List;

/**
 * The preview's preflight: asks every participating cluster to check the target (requester {@code preview}; a check
 * younger than {@link #RENEW_AFTER} is not asked again, so polling the preview does not flood the agents) and reads
 * the verdicts known so far, with the control plane's own findings ({@link RolloutMaturity}); clusters whose agent
 * has not answered yet show {@code Pending}. Only an operator or admin asks the agents: a viewer sees the verdicts
 * already stored.
 */
final class PreflightPreview {
  static final String REQUESTER = "preview";
  static final Duration RENEW_AFTER = Duration.ofSeconds(60);
  private final PreflightStore store = new PreflightStore();
  private final RolloutMaturity maturity;

  PreflightPreview(RolloutMaturity maturity) {
    this.maturity = maturity;
  }

  Future<PreflightView> verdicts(SqlClient client, RolloutPlanning.Plan plan, RolloutPlanning.Request request,
      Principal caller) {
    PreflightPolicy policy = request.strategy().preflight();
    if (policy.mode() == PreflightPolicy.Mode.Off) {
      return Future.succeededFuture(PreflightView.OFF);
    }
    List<String> clusters = plan.waves().stream().flatMap(w -> w.clusters().stream()).toList();
    String subscription = plan.subscription().name();
    Future<Void> asked = caller.role().includes(Role.OPERATOR)
        ? store.request(client, subscription, request.targetVersion(), null, REQUESTER, clusters, RENEW_AFTER)
        : Future.succeededFuture();
    return asked.compose(v -> store.verdicts(client, subscription, request.targetVersion(), REQUESTER))
        .compose(found -> maturity.findings(client, plan.subscription().spec(), request.targetVersion(), clusters)
            .map(checks -> new PreflightView(policy, found, checks)));
  }
}
