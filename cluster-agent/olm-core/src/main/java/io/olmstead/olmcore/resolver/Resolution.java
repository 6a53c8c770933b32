package io.olmstead.olmcore.resolver;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of resolving a namespace. When satisfiable: the new bundle per subscription
 * (subscriptions that keep their installed bundle are in {@link #unchanged()}), and the
 * dependencies pulled in without a subscription. When not: {@link #message()} explains why, in
 * OLM's wording.
 */
public final class Resolution {
  private final boolean satisfiable;
  private final Map<String, ResolvedBundle> bySubscription;
  private final List<ResolvedBundle> dependencies;
  private final Set<String> unchanged;
  private final String message;
  private final boolean budgetExceeded;
  private final long searchNodes;

  private Resolution(
      boolean satisfiable,
      Map<String, ResolvedBundle> bySubscription,
      List<ResolvedBundle> dependencies,
      Set<String> unchanged,
      String message,
      boolean budgetExceeded,
      long searchNodes) {
    this.satisfiable = satisfiable;
    this.bySubscription = bySubscription;
    this.dependencies = dependencies;
    this.unchanged = unchanged;
    this.message = message;
    this.budgetExceeded = budgetExceeded;
    this.searchNodes = searchNodes;
  }

  static Resolution solved(
      Map<String, ResolvedBundle> bySubscription,
      List<ResolvedBundle> dependencies,
      Set<String> unchanged,
      long searchNodes) {
    return new Resolution(
        true,
        Map.copyOf(bySubscription),
        List.copyOf(dependencies),
        Set.copyOf(unchanged),
        null,
        false,
        searchNodes);
  }

  static Resolution failed(String message, boolean budgetExceeded, long searchNodes) {
    return new Resolution(
        false, Map.of(), List.of(), Set.of(), message, budgetExceeded, searchNodes);
  }

  public boolean satisfiable() {
    return satisfiable;
  }

  /**
   * Subscription name to the bundle to install for it (new install or upgrade); empty when
   * unsatisfiable.
   */
  public Map<String, ResolvedBundle> bySubscription() {
    return bySubscription;
  }

  /** Bundles required by the chosen bundles that no subscription asked for, in discovery order. */
  public List<ResolvedBundle> dependencies() {
    return dependencies;
  }

  /** Subscriptions whose installed bundle stays (no upgrade chosen). */
  public Set<String> unchanged() {
    return unchanged;
  }

  /**
   * Null when satisfiable; else {@code constraints not satisfiable: ...} or another resolution
   * error.
   */
  public String message() {
    return message;
  }

  /** True when the search gave up after its node budget; {@link #message()} says so. */
  public boolean budgetExceeded() {
    return budgetExceeded;
  }

  /** Decisions the search made (a measure of work, for diagnostics). */
  public long searchNodes() {
    return searchNodes;
  }

  @Override
  public String toString() {
    return satisfiable
        ? "Resolution[subscriptions=" + bySubscription + ", dependencies=" + dependencies + "]"
        : "Resolution[" + message + "]";
  }
}
