package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.olmstead.agent.k8s.ResourceException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** What counts as "the API gave no answer", and that an outage is news once, not at every retry. */
class GuestReachabilityTest {
  @Test
  void noHttpAnswerOrA503IsUnreachableWhileAnyOtherAnswerIsNot() {
    assertThat(
            GuestReachability.noAnswer(
                new ResourceException("refused", 0, new ConnectException("refused"))))
        .isTrue();
    assertThat(
            GuestReachability.noAnswer(
                new KubernetesClientException(
                    "list failed",
                    new java.util.concurrent.CompletionException(
                        new ConnectException("Connection refused")))))
        .isTrue();
    assertThat(GuestReachability.noAnswer(new ResourceException("unavailable", 503, null)))
        .isTrue();
    assertThat(GuestReachability.noAnswer(new RuntimeException(new java.io.IOException("reset"))))
        .isTrue();
    assertThat(GuestReachability.noAnswer(new ResourceException("forbidden", 403, null))).isFalse();
    assertThat(GuestReachability.noAnswer(new ResourceException("conflict", 409, null))).isFalse();
    assertThat(GuestReachability.noAnswer(new IllegalStateException("a bug"))).isFalse();
  }

  @Test
  void anOutageIsNewsOnceUntilTheApiAnswersAgain() {
    GuestReachability reach = new GuestReachability("clusters-alpha");
    ResourceException refused =
        new ResourceException("refused", 0, new ConnectException("refused"));
    assertThat(reach.unreachable(refused)).isTrue();
    assertThat(reach.unreachable(new ResourceException("other words", 0, null))).isFalse();
    assertThat(reach.isUnreachable()).isTrue();
    reach.reachable();
    assertThat(reach.isUnreachable()).isFalse();
    assertThat(reach.unreachable(refused)).isTrue();
  }
}
