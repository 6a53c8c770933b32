package io.olmstead.controlplane.rollout;

import io.olmstead.controlplane.selector.LabelSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits the participating clusters into waves (pure): clusters ordered by the strategy's label
 * keys (clusters without a key last) then by name, the canary first, then batches of {@code
 * batchSize} or {@code batchPercent} of all clusters (neither: one batch). With {@code groupBy},
 * each value of that label is a group of its own, cut into batches inside the group, groups in the
 * order of their first cluster (clusters without the label last, as {@code rest}) or, with {@code
 * groupOrder}, the listed values first in the listed order, then the others in value order, then
 * {@code rest}; the canary taken from the first group. Every cluster lands in exactly one wave; no
 * wave is empty.
 */
public final class WavePlanner {
  /** The group of the clusters that lack the {@code groupBy} label. */
  static final String REST = "rest";

  private WavePlanner() {}

  /** A cluster as the planner sees it. */
  public record PlanCluster(String name, Map<String, String> labels) {
    public PlanCluster {
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
  }

  /**
   * One planned wave: its name ({@code canary}, {@code batch-1}, or {@code region=eu}, {@code
   * region=eu/2} and {@code rest} when grouped), its clusters in order, and its group: the {@code
   * groupBy} label's value (null when the clusters lack the label or the strategy does not group).
   */
  public record PlannedWave(String name, List<String> clusters, String group) {
    public PlannedWave {
      clusters = List.copyOf(clusters);
    }

    public PlannedWave(String name, List<String> clusters) {
      this(name, clusters, null);
    }
  }

  public static List<PlannedWave> plan(List<PlanCluster> clusters, RolloutStrategy strategy) {
    String groupBy = strategy.groupBy();
    List<PlanCluster> ordered = new ArrayList<>(clusters);
    ordered.sort(order(strategy.order(), groupBy));
    int total = ordered.size();
    List<PlannedWave> waves = new ArrayList<>();
    if (total == 0) {
      return waves;
    }
    // one group per value of the groupBy label, in the order of their first cluster; null: lacks it
    // (goes last)
    Map<String, List<PlanCluster>> groups = new LinkedHashMap<>();
    for (PlanCluster c : ordered) {
      groups
          .computeIfAbsent(groupBy == null ? null : c.labels().get(groupBy), k -> new ArrayList<>())
          .add(c);
    }
    if (groupBy != null && groups.size() > 1 && groups.containsKey(null)) {
      groups.put(null, groups.remove(null));
    }
    if (!strategy.groupOrder().isEmpty()) {
      groups = byGroupOrder(groups, strategy.groupOrder());
    }
    int size =
        strategy.batchSize() != null
            ? strategy.batchSize()
            : strategy.batchPercent() != null
                ? atLeastOne(total, strategy.batchPercent())
                : Integer.MAX_VALUE;
    boolean first = true;
    int batch = 1;
    for (Map.Entry<String, List<PlanCluster>> group : groups.entrySet()) {
      List<PlanCluster> rest = group.getValue();
      if (first && strategy.canary() != null) {
        List<PlanCluster> canary = new ArrayList<>();
        List<PlanCluster> others = new ArrayList<>();
        split(rest, strategy.canary(), total, canary, others);
        if (!canary.isEmpty()) {
          waves.add(new PlannedWave("canary", names(canary), group.getKey()));
        }
        rest = others;
      }
      first = false;
      int cut = Math.max(1, Math.min(size, rest.size()));
      for (int i = 0, n = 1; i < rest.size(); i += cut, n++) {
        List<String> names = names(rest.subList(i, Math.min(rest.size(), i + cut)));
        if (groupBy == null) {
          waves.add(new PlannedWave("batch-" + batch++, names));
        } else {
          String name =
              (group.getKey() == null ? REST : groupBy + "=" + group.getKey())
                  + (rest.size() > cut ? "/" + n : "");
          waves.add(new PlannedWave(name, names, group.getKey()));
        }
      }
    }
    return waves;
  }

  /**
   * The groups reordered by {@code groupOrder}: the listed values in the listed order, then the
   * values not listed in value order, then the clusters without the label.
   */
  static Map<String, List<PlanCluster>> byGroupOrder(
      Map<String, List<PlanCluster>> groups, List<String> groupOrder) {
    Map<String, List<PlanCluster>> out = new LinkedHashMap<>();
    for (String value : groupOrder) {
      if (groups.containsKey(value)) {
        out.put(value, groups.get(value));
      }
    }
    groups.keySet().stream()
        .filter(v -> v != null && !out.containsKey(v))
        .sorted()
        .forEach(v -> out.put(v, groups.get(v)));
    if (groups.containsKey(null)) {
      out.put(null, groups.get(null));
    }
    return out;
  }

  /**
   * The values of {@code groupOrder} that none of {@code clusters} carries as its {@code groupBy}
   * label.
   */
  public static List<String> missingGroups(List<PlanCluster> clusters, RolloutStrategy strategy) {
    if (strategy.groupBy() == null || strategy.groupOrder().isEmpty()) {
      return List.of();
    }
    Set<String> present = new HashSet<>();
    clusters.forEach(c -> present.add(c.labels().get(strategy.groupBy())));
    return strategy.groupOrder().stream().filter(v -> !present.contains(v)).toList();
  }

  /**
   * The canary: {@code count} or {@code percent} (of all {@code total} clusters) first ones, or
   * those selected.
   */
  private static void split(
      List<PlanCluster> from,
      RolloutStrategy.Canary canary,
      int total,
      List<PlanCluster> first,
      List<PlanCluster> others) {
    if (canary.selector() != null) {
      LabelSelector selector = LabelSelector.parse(canary.selector());
      for (PlanCluster c : from) {
        (selector.matches(c.labels()) ? first : others).add(c);
      }
      return;
    }
    int n =
        Math.min(
            from.size(),
            canary.count() != null ? canary.count() : atLeastOne(total, canary.percent()));
    first.addAll(from.subList(0, n));
    others.addAll(from.subList(n, from.size()));
  }

  private static int atLeastOne(int total, int percent) {
    return Math.max(1, (int) Math.ceil(total * percent / 100.0));
  }

  private static List<String> names(List<PlanCluster> clusters) {
    return clusters.stream().map(PlanCluster::name).toList();
  }

  private static Comparator<PlanCluster> order(List<String> keys, String groupBy) {
    Comparator<PlanCluster> cmp = (a, b) -> 0;
    for (String key : keys) {
      // clusters lacking the key sort after those having it
      cmp =
          cmp.thenComparing(
              c -> c.labels().get(key), Comparator.nullsLast(Comparator.naturalOrder()));
    }
    if (groupBy != null) {
      cmp =
          cmp.thenComparing(
              c -> c.labels().get(groupBy), Comparator.nullsLast(Comparator.naturalOrder()));
    }
    return cmp.thenComparing(PlanCluster::name);
  }
}
