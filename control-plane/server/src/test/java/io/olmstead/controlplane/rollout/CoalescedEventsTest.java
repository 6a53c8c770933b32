package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.olmstead.controlplane.rollout.CoalescedEvents.Pending;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
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
    CoalescedEvents events =
        new CoalescedEvents(10, 100, new SimpleMeterRegistry(), "cluster.reason");
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
    CoalescedEvents events =
        new CoalescedEvents(200, 1_000, new SimpleMeterRegistry(), "cluster.reason");
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

  @Test
  void dropsAreCountedInTheMetricAndAWarnIsDueAtMostOnceAMinute() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CoalescedEvents events = new CoalescedEvents(10, 2, registry, "cluster.reason");
    FunctionCounter counter =
        registry.get("olmstead.events.dropped").tag("stream", "cluster.reason").functionCounter();
    events.offer("a", event("a", "Failed"));
    events.offer("b", event("b", "Failed"));
    long t = 1_000_000_000L;
    assertThat(events.droppedSinceWarning(t)).as("nothing dropped yet").isZero();
    assertThat(counter.count()).isZero();

    assertThat(events.offer("c", event("c", "Failed"))).isFalse();
    assertThat(counter.count()).isEqualTo(1);
    assertThat(events.droppedSinceWarning(t)).as("the first drop").isEqualTo(1);
    events.offer("d", event("d", "Failed"));
    events.offer("e", event("e", "Failed"));
    assertThat(counter.count()).isEqualTo(3);
    long later = t + Duration.ofSeconds(59).toNanos();
    assertThat(events.droppedSinceWarning(later)).as("within the minute").isZero();
    long minute = t + CoalescedEvents.WARN_INTERVAL.toNanos();
    assertThat(events.droppedSinceWarning(minute)).as("the drops since the last WARN").isEqualTo(2);
    assertThat(events.droppedSinceWarning(minute + Duration.ofMinutes(5).toNanos()))
        .as("no drop since")
        .isZero();
  }
}
