package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Approve;
import io.olmstead.apispec.protocol.CloseReason;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this replica does about rows changed elsewhere: routes each {@link Change} notification to
 * the work it calls for (desired state republished, a session's credential rechecked, its approvals
 * resent, a hosted enrollment passed on) and runs the full resync that covers notifications missed.
 * Kept apart from the {@link AgentGateway}, which owns the connections, so that reactions to
 * changes read in one place.
 */
final class ChangeRouter {
  // Logs under the gateway's name, as it did before this class was split out of it: the log lines
  // stay the same.
  private static final Logger LOG = LoggerFactory.getLogger(AgentGateway.class);

  private final SessionRegistry sessions;
  private final DesiredPublisher publisher;
  private final CredentialStore credentials;
  private final ChannelStateStore state;
  private volatile Consumer<String> hostedEnrolled = cluster -> {};

  ChangeRouter(
      SessionRegistry sessions,
      DesiredPublisher publisher,
      CredentialStore credentials,
      ChannelStateStore state) {
    this.sessions = sessions;
    this.publisher = publisher;
    this.credentials = credentials;
    this.state = state;
  }

  /**
   * Told (with the cluster's name) when any replica's HyperShift watcher enrolled a hosted cluster.
   */
  void onHostedEnrolled(Consumer<String> listener) {
    this.hostedEnrolled = listener;
  }

  void onChange(Change change) {
    switch (change.kind()) {
      case "subscription", "catalog" -> publisher.fleetChanged();
      case "cluster" -> publisher.clusterChanged(change.id());
      case "edgerisk" -> publisher.holdsChanged();
      case "edgefailed" -> publisher.edgeFailed(change.id());
      case "credential" -> sessions.get(change.id()).ifPresent(this::recheckCredential);
      case "approval" -> sessions.get(change.id()).ifPresent(this::sendApprovals);
      case "hosted" -> hostedEnrolled.accept(change.id());
      default -> LOG.debug("ignoring change {}", change);
    }
  }

  /**
   * Sends the cluster's rollout approvals to its session (at the welcome and whenever they change).
   */
  void sendApprovals(AgentSession session) {
    state.approvals(session.cluster()).onSuccess(approvals -> send(session, approvals));
  }

  /**
   * Full resync: everything a notification could have carried, since notifications may have been
   * missed (subscriber reconnect, a LISTEN connection found dead, a replica cut from the database
   * for a while): desired state recomputed, credentials rechecked, approvals resent (an agent takes
   * an approval it already has as a no-op).
   */
  void resync() {
    publisher.fleetChanged();
    List<AgentSession> all = List.copyOf(sessions.all());
    List<CredentialStore.Held> held =
        all.stream().map(s -> new CredentialStore.Held(s.cluster(), s.credentialHash())).toList();
    credentials
        .revokedAmong(held)
        .onSuccess(
            revoked ->
                revoked.forEach(
                    cluster ->
                        sessions
                            .get(cluster)
                            .ifPresent(
                                s ->
                                    s.close(
                                        CloseReason.CREDENTIAL_REVOKED,
                                        "the cluster's credential was revoked"))));
    state
        .approvalsOf(all.stream().map(AgentSession::cluster).toList())
        .onSuccess(
            byCluster ->
                byCluster.forEach(
                    (cluster, approvals) ->
                        sessions.get(cluster).ifPresent(s -> send(s, approvals))))
        .onFailure(e -> LOG.warn("approvals not resent at resync: {}", e.toString()));
  }

  private static void send(AgentSession session, Map<String, String> approvals) {
    approvals.forEach(
        (subscription, bundle) ->
            session.send(new Approve(session.protocol(), null, subscription, bundle)));
  }

  private void recheckCredential(AgentSession session) {
    credentials
        .revokedAmong(
            List.of(new CredentialStore.Held(session.cluster(), session.credentialHash())))
        .onSuccess(
            revoked -> {
              if (revoked.contains(session.cluster())) {
                session.close(
                    CloseReason.CREDENTIAL_REVOKED,
                    "the cluster's credential was revoked or replaced");
              }
            });
  }
}
