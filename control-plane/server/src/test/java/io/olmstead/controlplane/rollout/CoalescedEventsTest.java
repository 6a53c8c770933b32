package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.rollout.CoalescedEvents.Pending;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A flood of agents' reason events held to one event per cluster and subscription, a bounded number
 * a flush.
 */
class CoalescedEventsTest {
  private static Pending event(String cluster, String code) {
    return new Pending(
        new JsonObject().put("id", cluster).put("reason", code), List.of("t"), List.of());
  }

  @Test
  void aClusterThatFlapsSendsItsLastStateOnceInItsFirstPlace() {
    CoalescedEvents events = new CoalescedEvents(10, 100);
    for (int i = 0; i < 1_000; i++) {
      events.offer("a", event("a", i % 2 == 0 ? "Failed" : null));
      events.offer("b", event("b", "Disconnected"));
    }
    List<Pending> sent = events.drain();
    assertThat(sent).extracting(p -> p.event().getString("id")).containsExactly("a", "b");
    assertThat(sent.get(0).event().getValue("reason")).as("the last of a's 1,000").isNull();
    assertThat(events.drain()).isEmpty();
  }

  @Test
  void aFloodOfClustersGoesOutABoundedNumberAFlushOldestFirstAndBeyondTheBoundIsDropped() {
    CoalescedEvents events = new CoalescedEvents(200, 1_000);
    for (int i = 0; i < 1_500; i++) {
      events.offer("c-" + i, event("c-" + i, "Disconnected"));
    }
    assertThat(events.pending()).isEqualTo(1_000);
    assertThat(events.dropped()).isEqualTo(500);
    List<Pending> first = events.drain();
    assertThat(first).hasSize(200);
    assertThat(first.get(0).event().getString("id")).isEqualTo("c-0");
    assertThat(events.drain().get(0).event().getString("id")).isEqualTo("c-200");
    assertThat(events.pending()).isEqualTo(600);
    // a held key is replaced even at the bound
    assertThat(events.offer("c-999", event("c-999", null))).isTrue();
  }
}
