package io.olmstead.controlplane.registry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which queued registry operation runs next (a pure decision, no threads): one FIFO queue per
 * registry host, at most {@code workers} operations running in all and at most {@code share}
 * against one host, hosts served in turn. With more than one worker the share is below the worker
 * count, so a registry that never answers holds at most its share and the others keep at least one
 * worker. Not thread-safe: its owner serialises calls.
 */
final class RegistryQueues<T> {

  /**
   * An operation taken to run, and the host whose share it counts against until {@link
   * #done(String)}.
   */
  record Taken<T>(String host, T item) {}

  private final int workers;
  private final int share;
  private final Map<String, Deque<T>> queued = new HashMap<>();
  private final Map<String, Integer> running = new HashMap<>();
  private final Deque<String> turn = new ArrayDeque<>();
  private int runningTotal;

  RegistryQueues(int workers, int perRegistry) {
    if (workers < 1 || perRegistry < 1) {
      throw new IllegalArgumentException("workers and per-registry limit must be positive");
    }
    this.workers = workers;
    this.share = shareOf(workers, perRegistry);
  }

  /**
   * The most workers one registry may hold: the per-registry limit, and never every worker when
   * there are two.
   */
  static int shareOf(int workers, int perRegistry) {
    return Math.max(1, Math.min(perRegistry, workers - 1));
  }

  void add(String host, T item) {
    Deque<T> q = queued.computeIfAbsent(host, h -> new ArrayDeque<>());
    if (q.isEmpty()) {
      turn.addLast(host);
    }
    q.addLast(item);
  }

  /**
   * The next operation to run now, counted as running; empty when every worker is busy or every
   * queued host full.
   */
  Optional<Taken<T>> next() {
    if (runningTotal >= workers) {
      return Optional.empty();
    }
    for (int i = turn.size(); i > 0; i--) {
      String host = turn.pollFirst();
      Deque<T> q = queued.get(host);
      if (running.getOrDefault(host, 0) >= share) {
        turn.addLast(host);
        continue;
      }
      T item = q.pollFirst();
      if (q.isEmpty()) {
        queued.remove(host);
      } else {
        turn.addLast(host);
      }
      running.merge(host, 1, Integer::sum);
      runningTotal++;
      return Optional.of(new Taken<>(host, item));
    }
    return Optional.empty();
  }

  /**
   * An operation of {@code host} taken by {@link #next()} finished: its worker and share are free.
   */
  void done(String host) {
    running.computeIfPresent(host, (h, n) -> n > 1 ? n - 1 : null);
    runningTotal--;
  }

  /** Empties every queue (the owner is closing); answers what was waiting. */
  List<T> clear() {
    List<T> out = new ArrayList<>();
    queued.values().forEach(out::addAll);
    queued.clear();
    turn.clear();
    return out;
  }

  int waiting(String host) {
    Deque<T> q = queued.get(host);
    return q == null ? 0 : q.size();
  }

  int running(String host) {
    return running.getOrDefault(host, 0);
  }

  int share() {
    return share;
  }
}
