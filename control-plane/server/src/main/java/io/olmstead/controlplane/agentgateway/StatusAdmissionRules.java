package io.olmstead.controlplane.agentgateway;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pure rules one session applies to a valid status report: seq order (a replay is acknowledged
 * and changes nothing; a jump of more than {@link Status#MAX_SEQ_JUMP} is refused) and placement
 * (only subscriptions in the cluster's desired state, or in one sent earlier on this session, or
 * with a live report from before are kept, so a cluster cannot write status for another team's
 * subscription or for one not created yet).
 */
final class StatusAdmissionRules {
  /** What to do with a report. */
  sealed interface Decision permits Replay, Refuse, Accept {}

  /** Already applied or superseded: acknowledge, store nothing. */
  record Replay(long seq) implements Decision {}

  /** Close the connection as malformed. */
  record Refuse(String detail) implements Decision {}

  /**
   * Store {@code status} (the placed items of the report); {@code dropped} items were not placed
   * here.
   */
  record Accept(Status status, List<String> dropped) implements Decision {}

  private final Set<String> placed = new HashSet<>();
  private long lastAcceptedSeq;
  private boolean desiredKnown;

  StatusAdmissionRules(long lastAcceptedSeq, Collection<String> reported) {
    this.lastAcceptedSeq = lastAcceptedSeq;
    placed.addAll(reported);
  }

  /**
   * A desired state was sent with these subscriptions; they stay reportable for the rest of the
   * session.
   */
  void desiredSent(Collection<String> names) {
    placed.addAll(names);
    desiredKnown = true;
  }

  /**
   * Whether a desired state was sent yet: before that, placement cannot be told and reports must
   * wait.
   */
  boolean desiredKnown() {
    return desiredKnown;
  }

  long lastAcceptedSeq() {
    return lastAcceptedSeq;
  }

  Decision admit(Status status) {
    long seq = status.seq();
    if (seq <= lastAcceptedSeq) {
      return new Replay(seq);
    }
    if (seq - lastAcceptedSeq > Status.MAX_SEQ_JUMP) {
      return new Refuse(
          "seq "
              + seq
              + " jumps more than "
              + Status.MAX_SEQ_JUMP
              + " above the last applied ("
              + lastAcceptedSeq
              + ")");
    }
    lastAcceptedSeq = seq;
    List<SubscriptionStatus> kept = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (SubscriptionStatus item : status.subscriptions()) {
      if (placed.contains(item.name())) {
        kept.add(item);
      } else {
        dropped.add(item.name());
      }
    }
    return new Accept(
        dropped.isEmpty()
            ? status
            : new Status(
                status.protocol(), status.id(), status.cluster(), seq, status.full(), kept),
        dropped);
  }
}
