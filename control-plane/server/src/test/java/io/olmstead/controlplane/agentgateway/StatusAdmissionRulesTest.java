package io.olmstead.controlplane.agentgateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.Status;
import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A session's status rules: seq order and bound, and placement of the reported subscriptions. */
class StatusAdmissionRulesTest {
  @Test
  void onlySubscriptionsPlacedOnTheClusterOrReportedBeforeAreKept() {
    StatusAdmissionRules admission = new StatusAdmissionRules(0, Set.of("being-removed"));
    assertThat(admission.desiredKnown()).isFalse();
    admission.desiredSent(List.of("mine"));
    StatusAdmissionRules.Accept accept =
        (StatusAdmissionRules.Accept)
            admission.admit(report(1, "mine", "theirs", "being-removed", "not-yet"));
    assertThat(accept.status().subscriptions())
        .extracting(SubscriptionStatus::name)
        .containsExactly("mine", "being-removed");
    assertThat(accept.dropped()).containsExactly("theirs", "not-yet");
    // a subscription removed from the desired state stays reportable for the session (the agent
    // removes it)
    admission.desiredSent(List.of());
    assertThat(((StatusAdmissionRules.Accept) admission.admit(report(2, "mine"))).dropped())
        .isEmpty();
  }

  @Test
  void replaysAreAcknowledgedAndAbsurdJumpsRefused() {
    StatusAdmissionRules admission = new StatusAdmissionRules(7, Set.of());
    admission.desiredSent(List.of("mine"));
    assertThat(admission.admit(report(7, "mine"))).isInstanceOf(StatusAdmissionRules.Replay.class);
    assertThat(admission.admit(report(7 + Status.MAX_SEQ_JUMP + 1, "mine")))
        .isInstanceOf(StatusAdmissionRules.Refuse.class);
    assertThat(admission.lastAcceptedSeq()).isEqualTo(7);
    assertThat(admission.admit(report(7 + Status.MAX_SEQ_JUMP, "mine")))
        .isInstanceOf(StatusAdmissionRules.Accept.class);
    assertThat(admission.lastAcceptedSeq()).isEqualTo(7 + Status.MAX_SEQ_JUMP);
  }

  private static Status report(long seq, String... names) {
    return new Status(
        1,
        null,
        null,
        seq,
        true,
        java.util.Arrays.stream(names)
            .map(
                n ->
                    new SubscriptionStatus(
                        n, null, null, null, "Succeeded", null, null, null, null))
            .toList());
  }
}
