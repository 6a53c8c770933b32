package io.olmstead.controlplane.rollout;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
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
 * maxPerFlush} events a flush, the oldest first; the rest wait for the next flush. The drops are
 * counted in {@code olmstead_events_dropped_total{stream}}, and a WARN about them is due at most
 * once a {@link #WARN_INTERVAL} ({@link #droppedSinceWarning}). Thread-safe: notifications arrive
 * on the listener's thread, flushes on a timer.
 */
final class CoalescedEvents {
  static final Duration WARN_INTERVAL = Duration.ofMinutes(1);

  /**
   * One event with the teams that may see it (every one of them, see {@link RolloutEvents#emit}).
   */
  record Pending(JsonObject event, List<String> teams, List<String> alsoTeams) {}

  private final int maxPerFlush;
  private final int maxPending;
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private long dropped;
  private long warnedDropped;
  private long warnedAtNanos;
  private boolean warned;

  /** {@code stream}: the event type, the counter's label. */
  CoalescedEvents(int maxPerFlush, int maxPending, MeterRegistry registry, String stream) {
    this.maxPerFlush = maxPerFlush;
    this.maxPending = maxPending;
    FunctionCounter.builder("olmstead.events.dropped", this, CoalescedEvents::dropped)
        .description("events dropped because too many were waiting to be sent")
        .tag("stream", stream)
        .register(registry);
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

  /**
   * How many events were dropped since the last WARN when one is due at {@code nowNanos} (the first
   * drop, then at most once a {@link #WARN_INTERVAL}), else 0; a non-zero answer counts as the WARN
   * given.
   */
  synchronized long droppedSinceWarning(long nowNanos) {
    long since = dropped - warnedDropped;
    if (since == 0 || (warned && nowNanos - warnedAtNanos < WARN_INTERVAL.toNanos())) {
      return 0;
    }
    warned = true;
    warnedAtNanos = nowNanos;
    warnedDropped = dropped;
    return since;
  }
}
