package io.olmstead.agent.testing;

import io.olmstead.agent.reconcile.StatusSink;
import io.olmstead.agent.reconcile.SubscriptionStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link StatusSink} that remembers every report, for assertions. */
public class RecordingSink implements StatusSink {
  private final List<SubscriptionStatus> history = new ArrayList<>();
  private final Map<String, SubscriptionStatus> latest = new ConcurrentHashMap<>();
  private final List<String> removed = new ArrayList<>();

  @Override
  public synchronized void publish(SubscriptionStatus status) {
    history.add(status);
    latest.put(status.name(), status);
  }

  @Override
  public synchronized void removed(String subscription) {
    removed.add(subscription);
    latest.remove(subscription);
  }

  public Optional<SubscriptionStatus> latest(String subscription) {
    return Optional.ofNullable(latest.get(subscription));
  }

  /** The phases reported for one subscription, in order, consecutive duplicates collapsed. */
  public synchronized List<String> phases(String subscription) {
    List<String> phases = new ArrayList<>();
    for (SubscriptionStatus s : history) {
      if (s.name().equals(subscription)
          && (phases.isEmpty() || !phases.get(phases.size() - 1).equals(s.phase()))) {
        phases.add(s.phase());
      }
    }
    return phases;
  }

  public synchronized List<SubscriptionStatus> history(String subscription) {
    return history.stream().filter(s -> s.name().equals(subscription)).toList();
  }

  public synchronized List<String> removed() {
    return List.copyOf(removed);
  }
}
