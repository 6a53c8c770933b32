package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.clusters.LabelSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Splits the participating clusters into waves (pure): clusters ordered by the strategy's label keys (clusters
 * without a key last) then by name, the canary first, then batches of {@code batchSize} or {@code batchPercent} of
 * all clusters (neither: one batch). Every cluster lands in exactly one wave; no wave is empty.
 */
public final class RolloutPlanner {
  private RolloutPlanner() {
  }

  /** A cluster as the planner sees it. */
  public record PlanCluster(String name, Map<String, String> labels) {
    public PlanCluster {
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
  }

  /** One planned wave: its name ({@code canary}, {@code batch-1}, ...) and its clusters in order. */
  public record PlannedWave(String name, List<String> clusters) {
    public PlannedWave {
      clusters = List.copyOf(clusters);
    }
  }

  public static List<PlannedWave> plan(List<PlanCluster> clusters, RolloutStrategy strategy) {
    List<PlanCluster> ordered = new ArrayList<>(clusters);
    ordered.sort(order(strategy.order()));
    int total = ordered.size();
    List<PlannedWave> waves = new ArrayList<>();
    if (total == 0) {
      return waves;
    }
    List<PlanCluster> rest = ordered;
    RolloutStrategy.Canary canary = strategy.canary();
    if (canary != null) {
      List<PlanCluster> first = new ArrayList<>();
      List<PlanCluster> others = new ArrayList<>();
      if (canary.selector() != null) {
        LabelSelector selector = LabelSelector.parse(canary.selector());
        for (PlanCluster c : ordered) {
          (selector.matches(c.labels()) ? first : others).add(c);
        }
      } else {
        int n = canary.count() != null ? canary.count() : atLeastOne(total, canary.percent());
        n = Math.min(n, total);
        first.addAll(ordered.subList(0, n));
        others.addAll(ordered.subList(n, total));
      }
      if (!first.isEmpty()) {
        waves.add(new PlannedWave("canary", names(first)));
      }
      rest = others;
    }
    int size = strategy.batchSize() != null ? strategy.batchSize()
        : strategy.batchPercent() != null ? atLeastOne(total, strategy.batchPercent())
        : Math.max(1, rest.size());
    int batch = 1;
    for (int i = 0; i < rest.size(); i += size) {
      waves.add(new PlannedWave("batch-" + batch++, names(rest.subList(i, Math.min(rest.size(), i + size)))));
    }
    return waves;
  }

  private static int atLeastOne(int total, int percent) {
    return Math.max(1, (int) Math.ceil(total * percent / 100.0));
  }

  private static List<String> names(List<PlanCluster> clusters) {
    return clusters.stream().map(PlanCluster::name).toList();
  }

  private static Comparator<PlanCluster> order(List<String> keys) {
    Comparator<PlanCluster> cmp = (a, b) -> 0;
    for (String key : keys) {
      // clusters lacking the key sort after those having it
      cmp = cmp.thenComparing(c -> c.labels().get(key), Comparator.nullsLast(Comparator.naturalOrder()));
    }
    return cmp.thenComparing(PlanCluster::name);
  }
}
