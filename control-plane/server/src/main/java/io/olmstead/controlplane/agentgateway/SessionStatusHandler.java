package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.CloseReason;
import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.StatusAck;
import io.vertx.core.Context;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status path of one agent connection once it is attached: checks each report's cluster and
 * shape, holds the reports that arrive before the first desired state (placement is not known yet,
 * so they cannot be admitted), applies the {@link StatusAdmissionRules} rules, hands accepted
 * reports to the gateway's {@link StatusBatcher} and acknowledges them once stored. Created by its
 * {@link AgentSession} when the attach succeeds; touched only on the session's event-loop context.
 * Kept apart from the session so that the handshake and the status rules each read on their own.
 */
final class SessionStatusHandler {
  // Logs under the session's name, as it did before this class was split out of it: the log lines
  // stay the same.
  private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);
  private static final int MAX_WAITING = 16;

  private final AgentSession session;
  private final Context context;
  private final AgentGateway gateway;
  private final StatusAdmissionRules admission;
  // Reports that arrived before the first desired state was sent: placement is not known yet.
  private final Queue<Status> waiting = new ArrayDeque<>();
  private boolean droppedLogged;

  SessionStatusHandler(
      AgentSession session, Context context, AgentGateway gateway, StatusAdmissionRules admission) {
    this.session = session;
    this.context = context;
    this.gateway = gateway;
    this.admission = admission;
  }

  /**
   * The last report seq applied for the cluster (at the welcome, the one stored in the database).
   */
  long lastAcceptedSeq() {
    return admission.lastAcceptedSeq();
  }

  void onStatus(Status status) {
    String cluster = session.cluster();
    if (status.cluster() != null && !status.cluster().equals(cluster)) {
      gateway.wrongCluster(session, "status", status.cluster());
      session.close(CloseReason.WRONG_CLUSTER, "this credential is for cluster " + cluster);
      return;
    }
    String invalid = StatusValidation.invalid(status);
    if (invalid != null) {
      session.close(CloseReason.MALFORMED_MESSAGE, invalid);
      return;
    }
    if (!admission.desiredKnown()) {
      if (waiting.size() >= MAX_WAITING) {
        session.close(CloseReason.TRY_AGAIN_LATER, "reports sent before the desired state");
      } else {
        waiting.add(status);
      }
      return;
    }
    admit(status);
  }

  /**
   * A desired state with these subscriptions went out: the reports waiting for it are admitted, in
   * order.
   */
  void desiredSent(Set<String> names) {
    admission.desiredSent(names);
    while (!waiting.isEmpty() && !session.isClosed()) {
      admit(waiting.poll());
    }
  }

  private void admit(Status status) {
    String cluster = session.cluster();
    StatusAdmissionRules.Decision decision = admission.admit(status);
    if (decision instanceof StatusAdmissionRules.Replay replay) {
      // A replay or a late report: already applied or superseded, so acknowledged without changing
      // anything.
      session.send(new StatusAck(session.protocol(), status.id(), replay.seq()));
      return;
    }
    if (decision instanceof StatusAdmissionRules.Refuse refuse) {
      session.close(CloseReason.MALFORMED_MESSAGE, refuse.detail());
      return;
    }
    StatusAdmissionRules.Accept accept = (StatusAdmissionRules.Accept) decision;
    if (!accept.dropped().isEmpty()) {
      gateway.metrics().statusDropped(accept.dropped().size());
      if (!droppedLogged) {
        droppedLogged = true;
        // INFO: an agent reports the subscriptions OLM implies for dependencies too, which no fleet
        // subscription names
        LOG.info(
            "cluster {}: status for subscriptions not placed on it dropped (logged once per connection): {}",
            cluster,
            accept.dropped().subList(0, Math.min(5, accept.dropped().size())));
      }
    }
    long seq = status.seq();
    gateway
        .ingestor()
        .submitStatus(cluster, accept.status())
        .onComplete(
            ar ->
                context.runOnContext(
                    v -> {
                      if (ar.succeeded()) {
                        session.send(new StatusAck(session.protocol(), status.id(), seq));
                      } else {
                        // the seq was taken as applied; closing makes the agent reconnect and
                        // resend its full state, which the
                        // seq stored in the database (older than this one) lets in
                        LOG.warn(
                            "cluster {}: status {} not stored: {}",
                            cluster,
                            seq,
                            ar.cause().toString());
                        session.close(
                            CloseReason.TRY_AGAIN_LATER, "status " + seq + " was not stored");
                      }
                    }));
  }
}
