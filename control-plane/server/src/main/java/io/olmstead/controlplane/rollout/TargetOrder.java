package io.olmstead.controlplane.rollout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The order in which a rollout of several subscriptions moves its targets on each cluster (pure): a
 * target whose bundle requires a package ({@code olm.package.required}) or a GVK ({@code
 * olm.gvk.required}) that another target's bundle provides ({@code olm.package}, {@code olm.gvk})
 * goes after it; otherwise the request's order stands (of the targets free to go, the one listed
 * first goes first). A cycle is refused, naming the targets in it.
 */
final class TargetOrder {
  private TargetOrder() {}

  /**
   * A target bundle's dependency facts: the package it is, the GVKs it provides, the packages and
   * GVKs it requires (a GVK as {@code group/version/kind}).
   */
  record Facts(
      String subscription,
      String packageName,
      Set<String> providedGvks,
      Set<String> requiredPackages,
      Set<String> requiredGvks) {
    boolean requires(Facts provider) {
      return requiredPackages.contains(provider.packageName())
          || requiredGvks.stream().anyMatch(provider.providedGvks()::contains);
    }
  }

  /** Targets that require one another in a circle (request indexes, ascending). */
  static final class CycleException extends Exception {
    private final List<Integer> targets;

    CycleException(List<Integer> targets, String message) {
      super(message);
      this.targets = List.copyOf(targets);
    }

    List<Integer> targets() {
      return targets;
    }
  }

  /** The request indexes of {@code targets}, providers before their consumers. */
  static List<Integer> order(List<Facts> targets) throws CycleException {
    int n = targets.size();
    List<Set<Integer>> after = new ArrayList<>(); // after.get(i): the targets i must follow
    for (int i = 0; i < n; i++) {
      Set<Integer> providers = new TreeSet<>();
      for (int j = 0; j < n; j++) {
        if (i != j && targets.get(i).requires(targets.get(j))) {
          providers.add(j);
        }
      }
      after.add(providers);
    }
    List<Integer> out = new ArrayList<>();
    Set<Integer> left = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      left.add(i);
    }
    while (!left.isEmpty()) {
      Integer next =
          left.stream().filter(i -> out.containsAll(after.get(i))).findFirst().orElse(null);
      if (next == null) {
        List<Integer> cycle = cycle(after, left);
        List<String> names = cycle.stream().map(i -> targets.get(i).subscription()).toList();
        throw new CycleException(
            cycle, "targets " + String.join(", ", names) + " require one another in a cycle");
      }
      out.add(next);
      left.remove(next);
    }
    return out;
  }

  /** The targets on one cycle among {@code left} (each of which waits on another of them). */
  private static List<Integer> cycle(List<Set<Integer>> after, Set<Integer> left) {
    List<Integer> path = new ArrayList<>();
    int at = left.iterator().next();
    while (!path.contains(at)) {
      path.add(at);
      int from = at;
      at = after.get(from).stream().filter(left::contains).findFirst().orElseThrow();
    }
    return new ArrayList<>(new TreeSet<>(path.subList(path.indexOf(at), path.size())));
  }
}
