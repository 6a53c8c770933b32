package io.olmstead.agent.channel;

import io.olmstead.apispec.protocol.SubscriptionStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent's current status per subscription and which entries the control plane has not been told
 * yet. Status is state: a newer entry replaces an unsent older one, so nothing but the latest is
 * kept while offline.
 */
final class StatusBuffer {
  private final Map<String, SubscriptionStatus> current = new LinkedHashMap<>();
  private final Set<String> dirty = new LinkedHashSet<>();
  private boolean known;
  private boolean removals;

  void put(SubscriptionStatus status) {
    known = true;
    if (!status.equals(current.put(status.name(), status))) {
      dirty.add(status.name());
    }
  }

  /**
   * Replaces the whole state; subscriptions no longer listed are dropped (the next report is full).
   */
  void replaceAll(Collection<SubscriptionStatus> statuses) {
    known = true;
    Set<String> names = new LinkedHashSet<>();
    statuses.forEach(s -> names.add(s.name()));
    if (current.keySet().removeIf(name -> !names.contains(name))) {
      removals = true;
    }
    statuses.forEach(this::put);
  }

  /**
   * Whether the state was ever set; before that a full report would wrongly say "nothing
   * installed".
   */
  boolean known() {
    return known;
  }

  boolean hasChanges() {
    return !dirty.isEmpty() || removals;
  }

  /** Whether the next report must be full (something was removed). */
  boolean needsFull() {
    return removals;
  }

  /** Takes the unsent entries (all of them when {@code full}) and marks them sent. */
  List<SubscriptionStatus> take(boolean full) {
    List<SubscriptionStatus> out = new ArrayList<>();
    if (full) {
      out.addAll(current.values());
    } else {
      dirty.forEach(name -> out.add(current.get(name)));
    }
    dirty.clear();
    removals = false;
    return out;
  }

  Map<String, SubscriptionStatus> snapshot() {
    return Map.copyOf(current);
  }
}
