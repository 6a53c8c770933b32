package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.access.Role;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.catalog.CatalogRecord;
import io.olmstead.controlplane.catalog.CatalogStore;
import io.olmstead.controlplane.preflight.PreflightStore;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.time.Duration;
import java.util.List;

/**
 * The preview's preflight: asks every participating cluster to check the target against the
 * catalog's current revision (requester {@code preview:CATALOG@REVISION}; a check younger than
 * {@link #RENEW_AFTER} is not asked again, so polling the preview does not flood the agents, but a
 * new catalog revision asks again at once and drops the checks of older revisions) and reads the
 * verdicts known so far for that revision, with the control plane's own findings ({@link
 * RolloutMaturity}); clusters whose agent has not answered yet show {@code Pending}. Only an
 * operator or admin asks the agents: a viewer sees the verdicts already stored.
 */
final class PreflightPreview {
  static final String REQUESTER = "preview";
  static final Duration RENEW_AFTER = Duration.ofSeconds(60);
  private final PreflightStore store = new PreflightStore();
  private final CatalogStore catalogs = new CatalogStore();
  private final RolloutMaturity maturity;

  PreflightPreview(RolloutMaturity maturity) {
    this.maturity = maturity;
  }

  Future<PreflightView> verdicts(
      SqlClient client,
      RolloutPlanLoader.Plan plan,
      RolloutPlanLoader.Request request,
      Principal caller) {
    PreflightPolicy policy = request.strategy().preflight();
    if (policy.mode() == PreflightPolicy.Mode.Off) {
      return Future.succeededFuture(PreflightView.OFF);
    }
    List<String> clusters = plan.waves().stream().flatMap(w -> w.clusters().stream()).toList();
    String subscription = plan.subscription().name();
    String catalog = plan.subscription().spec().catalog();
    boolean asks = caller.role().includes(Role.OPERATOR);
    return catalogs
        .get(client, catalog)
        .map(found -> requester(catalog, found.map(CatalogRecord::currentRevision).orElse(null)))
        .compose(
            requester ->
                (asks
                        ? ask(client, subscription, request.targetVersion(), requester, clusters)
                        : Future.<Void>succeededFuture())
                    .compose(
                        v ->
                            store.verdicts(
                                client, subscription, request.targetVersion(), requester)))
        .compose(
            found ->
                maturity
                    .findings(client, plan.subscription().spec(), request.targetVersion(), clusters)
                    .map(checks -> new PreflightView(policy, found, checks)));
  }

  /**
   * The requester of the preview's checks against {@code revision} of {@code catalog}: a new
   * revision, new checks.
   */
  static String requester(String catalog, Integer revision) {
    return REQUESTER + ":" + catalog + "@" + revision;
  }

  private Future<Void> ask(
      SqlClient client,
      String subscription,
      String version,
      String requester,
      List<String> clusters) {
    return store
        .forgetOthers(client, subscription, version, REQUESTER + ":", requester)
        .compose(
            v ->
                store.request(
                    client, subscription, version, null, requester, clusters, RENEW_AFTER));
  }
}
