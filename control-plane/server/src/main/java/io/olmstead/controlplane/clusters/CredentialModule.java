package io.olmstead.controlplane.clusters;

import io.olmstead.controlplane.agentgateway.CredentialStore;
import io.olmstead.controlplane.audit.AuditEntry;
import io.olmstead.controlplane.auth.Principal;
import io.olmstead.controlplane.http.ApiContext;
import io.olmstead.controlplane.http.ApiModule;
import io.olmstead.controlplane.http.ApiRequest;
import io.olmstead.controlplane.http.Reply;
import io.vertx.core.Future;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * {@code POST /clusters/{name}/credential/revoke}: cuts a cluster's agent off without forgetting
 * the cluster. The credential row's trigger notifies every replica at commit, and the one holding
 * the connection closes it with {@code credential-revoked}, as when a delete or a re-enrollment
 * replaces the credential.
 */
public final class CredentialModule implements ApiModule {
  private final ClusterStore clusters = new ClusterStore();
  private ApiContext context;

  @Override
  public void register(RouterBuilder builder, ApiContext ctx) {
    this.context = ctx;
    ApiModule.bind(builder, "revokeClusterCredential", this::revoke);
  }

  private Future<Reply> revoke(ApiRequest request) {
    String name = request.path("name");
    Principal caller = request.principal();
    AuditEntry audit = request.audit("cluster.revoke-credential", "clusters/" + name);
    return context
        .tx()
        .audited(
            audit,
            conn ->
                clusters
                    .findForUpdate(conn, name)
                    .map(found -> ClustersModule.visible(found, name, caller))
                    .compose(cluster -> CredentialStore.revoke(conn, name))
                    .compose(
                        revoked ->
                            clusters
                                .disconnect(conn, name)
                                .map(cluster -> new Revoked(cluster, revoked))),
            done -> audit.detail().copy().put("revoked", done.revoked()))
        .map(done -> Reply.ok(done.cluster().toJson()).withEtag(done.cluster().resourceVersion()));
  }

  /** The cluster after the revocation, and whether a live credential was revoked. */
  private record Revoked(Cluster cluster, boolean revoked) {}
}
