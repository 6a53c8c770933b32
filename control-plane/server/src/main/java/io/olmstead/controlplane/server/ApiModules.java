package io.olmstead.controlplane.server;

import io.olmstead.controlplane.auditlog.AuditModule;
import io.olmstead.controlplane.catalog.CatalogsModule;
import io.olmstead.controlplane.clusters.ApprovalsModule;
import io.olmstead.controlplane.clusters.BulkApprovalsModule;
import io.olmstead.controlplane.clusters.ClustersModule;
import io.olmstead.controlplane.clusters.CredentialModule;
import io.olmstead.controlplane.clusters.WaitingApprovals;
import io.olmstead.controlplane.enrollment.EnrollmentModule;
import io.olmstead.controlplane.fleet.ClusterSubscriptions;
import io.olmstead.controlplane.fleet.FleetModule;
import io.olmstead.controlplane.fleet.MatrixModule;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.maturity.MaturityModule;
import io.olmstead.controlplane.rollout.CalendarModule;
import io.olmstead.controlplane.tokens.TokensModule;
import io.olmstead.controlplane.upgradereadiness.UpgradeReadinessModule;
import io.olmstead.controlplane.webhooks.WebhooksModule;
import java.util.List;

/**
 * The REST API's modules that need nothing but the store; {@link ControlPlane} adds those built
 * with a component (agent gateway, pool tokens, subscriptions with the rollouts they start...) when
 * it starts.
 */
final class ApiModules {
  private ApiModules() {}

  /**
   * The REST API's modules, each binding its operations of openapi.yaml; a component adds its one
   * line here.
   */
  static List<ApiModule> all() {
    return List.of(
        new TokensModule(),
        new EnrollmentModule(),
        new ClustersModule(),
        new ApprovalsModule(),
        new BulkApprovalsModule(),
        new WaitingApprovals(),
        new FleetModule(),
        new MatrixModule(),
        new ClusterSubscriptions(),
        new CredentialModule(),
        new CatalogsModule(),
        new MaturityModule(),
        new CalendarModule(),
        new WebhooksModule(),
        new UpgradeReadinessModule(),
        new AuditModule());
  }
}
