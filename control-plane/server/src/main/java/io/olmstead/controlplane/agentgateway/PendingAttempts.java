package io.olmstead.controlplane.agentgateway;

import io.olmstead.controlplane.edgerisk.ReportedEdge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The edge attempts agents reported that wait to be recorded (pure, bounded): one per cluster,
 * subscription and edge (a later report replaces an earlier one), at most {@code perCluster} edges
 * of one cluster and {@code total} in all; what comes past the bounds is counted and dropped, so an
 * agent flooding failures takes a bounded share and delays nothing else.
 */
final class PendingAttempts {
  /** An attempt of a cluster's subscription. */
  record Pending(String cluster, String subscription, ReportedEdge.Attempt attempt) {
    String key() {
      return cluster + "\n" + subscription + "\n" + attempt.from() + "\n" + attempt.to();
    }
  }

  private final int total;
  private final int perCluster;
  private final Map<String, Pending> queued = new LinkedHashMap<>();
  private final Map<String, Integer> ofCluster = new HashMap<>();
  private long dropped;

  PendingAttempts(int total, int perCluster) {
    this.total = total;
    this.perCluster = perCluster;
  }

  /** Queues {@code p}; false when it was dropped past a bound. */
  boolean offer(Pending p) {
    String key = p.key();
    if (queued.containsKey(key)) {
      queued.put(key, p);
      return true;
    }
    if (queued.size() >= total || ofCluster.getOrDefault(p.cluster(), 0) >= perCluster) {
      dropped++;
      return false;
    }
    queued.put(key, p);
    ofCluster.merge(p.cluster(), 1, Integer::sum);
    return true;
  }

  /** Takes up to {@code max} attempts, oldest first. */
  List<Pending> take(int max) {
    List<Pending> out = new ArrayList<>();
    var it = queued.values().iterator();
    while (it.hasNext() && out.size() < max) {
      Pending p = it.next();
      it.remove();
      ofCluster.computeIfPresent(p.cluster(), (c, n) -> n <= 1 ? null : n - 1);
      out.add(p);
    }
    return out;
  }

  int size() {
    return queued.size();
  }

  /** How many attempts were dropped past the bounds since the start. */
  long dropped() {
    return dropped;
  }
}
