package io.olmstead.controlplane.rollout;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Events that agents alone cause ({@code cluster.reason}), held between flushes so that a flood of
 * agents cannot flood the event stream: one pending event per key (a cluster and subscription; the
 * newest replaces an older one in its place, so a cluster that flaps sends its last state once), at
 * most {@code maxPending} keys (a new key beyond that is dropped and counted), and at most {@code
 * maxPerFlush} events a flush, the oldest first; the rest wait for the next flush. Thread-safe:
 * notifications arrive on the listener's thread, flushes on a timer.
 */
final class CoalescedEvents {
  /**
   * One event with the teams that may see it (every one of them, see {@link RolloutEvents#emit}).
   */
  record Pending(JsonObject event, List<String> teams, List<String> alsoTeams) {}

  private final int maxPerFlush;
  private final int maxPending;
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private long dropped;

  CoalescedEvents(int maxPerFlush, int maxPending) {
    this.maxPerFlush = maxPerFlush;
    this.maxPending = maxPending;
  }

  /**
   * Holds {@code event} under {@code key}; false when it was dropped (the bound reached by other
   * keys).
   */
  synchronized boolean offer(String key, Pending event) {
    if (!pending.containsKey(key) && pending.size() >= maxPending) {
      dropped++;
      return false;
    }
    pending.put(key, event);
    return true;
  }

  /** Takes at most {@code maxPerFlush} held events, the oldest keys first. */
  synchronized List<Pending> drain() {
    List<Pending> out = new ArrayList<>(Math.min(maxPerFlush, pending.size()));
    Iterator<Pending> it = pending.values().iterator();
    while (it.hasNext() && out.size() < maxPerFlush) {
      out.add(it.next());
      it.remove();
    }
    return out;
  }

  synchronized int pending() {
    return pending.size();
  }

  /** Events dropped since the start because {@code maxPending} keys were already held. */
  synchronized long dropped() {
    return dropped;
  }
}
