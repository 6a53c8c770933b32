package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.resolver.Problem.Var;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * OLM v0's namespace-scoped resolution: every subscription of a namespace plus what is installed
 * there, solved together with dependencies ({@code olm.package.required}, {@code
 * olm.gvk.required}), one bundle per package and one provider per API. Thread-safe; per-catalog
 * indexes are cached for as long as the catalog is reachable.
 */
public final class Resolver {
  /** Default bound on search decisions per resolution. */
  public static final long DEFAULT_NODE_BUDGET = 100_000;

  private final long nodeBudget;
  private final Map<Catalog, CatalogIndex> indexes =
      Collections.synchronizedMap(new WeakHashMap<>());

  public Resolver() {
    this(DEFAULT_NODE_BUDGET);
  }

  /** A resolver whose search gives up (reporting it) after {@code nodeBudget} decisions. */
  public Resolver(long nodeBudget) {
    this.nodeBudget = Math.max(1, nodeBudget);
  }

  /** Resolves the namespace; never throws, failures are in the returned {@link Resolution}. */
  public Resolution resolve(
      List<CatalogSource> catalogs,
      List<SubscriptionRequest> subscriptions,
      List<InstalledOperator> installed) {
    List<SubscriptionRequest> subs =
        subscriptions == null ? List.of() : subscriptions.stream().filter(s -> s != null).toList();
    ProblemBuilder builder =
        new ProblemBuilder(
            catalogs == null ? List.of() : catalogs,
            source -> indexes.computeIfAbsent(source.catalog(), CatalogIndex::of));
    Solver solver = new Solver(builder.problem, nodeBudget);
    try {
      builder.addInstalled(installed == null ? List.of() : installed, subs);
      for (SubscriptionRequest sub : subs) {
        builder.addSubscription(sub);
      }
      if (builder.hardError() != null) {
        return Resolution.failed(builder.hardError(), false, 0);
      }
      if (!solver.solve()) {
        String message = ConflictExplainer.explain(builder.problem, nodeBudget, nodeBudget * 20);
        return Resolution.failed(message, false, solver.nodes());
      }
      return extract(builder, solver.nodes());
    } catch (Solver.BudgetExceeded e) {
      return Resolution.failed(
          "resolution gave up: the search exceeded its budget of " + nodeBudget + " decisions",
          true,
          solver.nodes());
    } catch (RuntimeException e) {
      // Defensive: malformed input must come back as a failed resolution, not an exception.
      return Resolution.failed("resolution failed: " + e, false, solver.nodes());
    }
  }

  private static Resolution extract(ProblemBuilder builder, long nodes) {
    Map<String, ResolvedBundle> bySubscription = new LinkedHashMap<>();
    Set<String> unchanged = new LinkedHashSet<>();
    Set<Var> chosenBySubscriptions = new HashSet<>();
    for (ProblemBuilder.SubscriptionVar s : builder.subscriptions) {
      Var chosen = null;
      if (s.requires() == null) {
        continue;
      }
      Candidates candidates = s.requires().candidates;
      for (int i = 0; i < candidates.size(); i++) {
        Var v = candidates.peek(i);
        if (v != null && v.value == Problem.TRUE) {
          chosen = v;
          break;
        }
      }
      if (chosen == null) {
        continue;
      }
      chosenBySubscriptions.add(chosen);
      String name = s.request().name();
      if (chosen.installed) {
        unchanged.add(name);
      } else {
        // The subscription's channel, even if the variable was first offered through another
        // channel.
        bySubscription.put(
            name,
            new ResolvedBundle(chosen.catalog, s.channel(), chosen.bundle, s.installed() != null));
      }
    }
    List<ResolvedBundle> dependencies = new ArrayList<>();
    for (Var v : builder.problem.vars) {
      if (v.value == Problem.TRUE
          && v.bundle != null
          && !v.installed
          && !chosenBySubscriptions.contains(v)) {
        dependencies.add(new ResolvedBundle(v.catalog, v.channel, v.bundle, false));
      }
    }
    return Resolution.solved(bySubscription, dependencies, unchanged, nodes);
  }
}
