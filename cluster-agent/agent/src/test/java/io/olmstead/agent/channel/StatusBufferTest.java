package io.olmstead.agent.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusBufferTest {
  private static SubscriptionStatus s(String name, String phase) {
    return new SubscriptionStatus(name, null, null, "1.0.0", phase, null, null, null, null);
  }

  @Test
  void keepsOnlyTheNewestUnsentEntryPerSubscription() {
    StatusBuffer buffer = new StatusBuffer();
    buffer.put(s("etcd", "Installing"));
    buffer.put(s("etcd", "Succeeded"));
    buffer.put(s("nginx", "Pending"));
    assertThat(buffer.take(false)).containsExactly(s("etcd", "Succeeded"), s("nginx", "Pending"));
    assertThat(buffer.hasChanges()).isFalse();
  }

  @Test
  void anUnchangedEntryIsNotResent() {
    StatusBuffer buffer = new StatusBuffer();
    buffer.put(s("etcd", "Succeeded"));
    buffer.take(false);
    buffer.put(s("etcd", "Succeeded"));
    assertThat(buffer.hasChanges()).isFalse();
  }

  @Test
  void aFullReportCarriesEverythingAndRemovalsForceOne() {
    StatusBuffer buffer = new StatusBuffer();
    assertThat(buffer.known()).isFalse();
    buffer.replaceAll(List.of(s("a", "Succeeded"), s("b", "Succeeded")));
    buffer.take(false);
    buffer.replaceAll(List.of(s("a", "Succeeded")));
    assertThat(buffer.needsFull()).isTrue();
    assertThat(buffer.take(true)).containsExactly(s("a", "Succeeded"));
    assertThat(buffer.known()).isTrue();
  }
}
