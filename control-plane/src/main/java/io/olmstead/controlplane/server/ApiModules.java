package io.olmstead.controlplane.server;

import io.olmstead.controlplane.auditlog.AuditModule;
import io.olmstead.controlplane.clusters.ApprovalsModule;
import io.olmstead.controlplane.clusters.ClustersModule;
import io.olmstead.controlplane.clusters.CredentialModule;
import io.olmstead.controlplane.enrollment.EnrollmentModule;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.tokens.TokensModule;
import java.util.List;

/**
 * The REST API's modules that need nothing but the store; {@link ControlPlane} adds those built with a component
 * (agent gateway, pool tokens...) when it starts.
 */
final class ApiModules {
  private ApiModules() {}

  /** The REST API's modules, each binding its operations of openapi.yaml; a component adds its one line here. */
  static List<ApiModule> all() {
    return List.of(
        new TokensModule(),
        new EnrollmentModule(),
        new ClustersModule(),
        new ApprovalsModule(),
        new io.olmstead.controlplane.clusters.BulkApprovalsModule(),
        new io.olmstead.controlplane.clusters.WaitingApprovals(),
        new io.olmstead.controlplane.fleet.FleetModule(),
        new io.olmstead.controlplane.fleet.ClusterSubscriptions(),
        new CredentialModule(),
        new io.olmstead.controlplane.catalog.CatalogsModule(),
        new io.olmstead.controlplane.maturity.MaturityModule(),
        new io.olmstead.controlplane.registry.BundlesModule(),
        new io.olmstead.controlplane.subscription.SubscriptionsModule(),
        new io.olmstead.controlplane.rollout.CalendarModule(),
        new io.olmstead.controlplane.webhooks.WebhooksModule(),
        new io.olmstead.controlplane.readiness.ReadinessModule(),
        new AuditModule());
  }
}
