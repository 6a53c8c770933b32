package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.resolver.Problem.Constraint;
import io.olmstead.olmcore.resolver.Problem.Group;
import io.olmstead.olmcore.resolver.Problem.Var;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A small DPLL-style search over a {@link Problem}: unit propagation of dependency constraints,
 * then a decision on the first open dependency, trying its candidates in preference order and
 * undoing a choice that leads to a conflict. The first solution found is therefore the preferred
 * one. Bounded by a node budget.
 */
final class Solver {
  /** Thrown (internally only) when the node budget is spent. */
  static final class BudgetExceeded extends RuntimeException {
    BudgetExceeded() {
      super("search budget exceeded", null, false, false);
    }
  }

  private final Problem problem;
  private final long budget;
  private long nodes;
  // Undo log: a variable index (value to reset), or -(group index + 1) (selection to reset).
  private int[] trail = new int[64];
  private int trailSize;
  // Dependencies of the chosen variables, in the order they were chosen (kept in step with the
  // trail).
  private final List<Constraint> active = new ArrayList<>();

  Solver(Problem problem, long budget) {
    this.problem = problem;
    this.budget = budget;
  }

  long nodes() {
    return nodes;
  }

  /**
   * True when the enabled constraints are satisfiable; the assignment is then left in the
   * variables.
   */
  boolean solve() {
    reset();
    for (Constraint c : problem.prohibited) {
      if (c.enabled) {
        c.subject.value = Problem.FALSE;
      }
    }
    for (Constraint c : problem.mandatory) {
      if (c.enabled && !select(c.subject)) {
        return false;
      }
    }
    return search();
  }

  private void reset() {
    for (Var v : problem.vars) {
      v.value = Problem.UNSET;
    }
    for (Group g : problem.groups) {
      g.selected = null;
    }
    trailSize = 0;
    active.clear();
  }

  private boolean search() {
    if (++nodes > budget) {
      throw new BudgetExceeded();
    }
    if (!propagate()) {
      return false;
    }
    Constraint open = firstOpen();
    if (open == null) {
      return true;
    }
    Candidates candidates = open.candidates;
    for (int i = 0; i < candidates.size(); i++) {
      if (blocked(candidates, i)) {
        continue;
      }
      Var v = candidates.get(i);
      if (blocked(v)) {
        continue;
      }
      int mark = trailSize;
      if (select(v) && search()) {
        return true;
      }
      undo(mark);
      // This branch failed: the candidate is out for the rest of this decision level.
      v.value = Problem.FALSE;
      push(v.index);
    }
    return false;
  }

  /**
   * Forces the only remaining candidate of each active dependency; false on a dependency left with
   * none.
   */
  private boolean propagate() {
    boolean changed = true;
    while (changed) {
      changed = false;
      // Index loop: choosing a bundle appends its dependencies to the list.
      for (int i = 0; i < active.size(); i++) {
        Constraint d = active.get(i);
        if (!d.enabled || d.subject.value != Problem.TRUE) {
          continue;
        }
        if (d.witness != null && d.witness.value == Problem.TRUE) {
          continue;
        }
        int open = -1;
        int count = 0;
        boolean satisfied = false;
        Candidates candidates = d.candidates;
        for (int c = 0; c < candidates.size(); c++) {
          Var v = candidates.peek(c);
          if (v != null && v.value == Problem.TRUE) {
            d.witness = v;
            satisfied = true;
            break;
          }
          if (!blocked(candidates, c) && !blocked(candidates.get(c))) {
            open = c;
            // Two open candidates: nothing to propagate, whether or not a later one is chosen.
            if (++count > 1) {
              break;
            }
          }
        }
        if (satisfied || count > 1) {
          continue;
        }
        if (count == 0) {
          return false;
        }
        if (count == 1) {
          if (!select(candidates.get(open))) {
            return false;
          }
          changed = true;
        }
      }
    }
    return true;
  }

  /**
   * The first unsatisfied dependency, in the order its subject was chosen (subscriptions first).
   */
  private Constraint firstOpen() {
    for (int i = 0; i < active.size(); i++) {
      Constraint d = active.get(i);
      if (d.enabled && d.subject.value == Problem.TRUE && !satisfied(d)) {
        return d;
      }
    }
    return null;
  }

  private boolean satisfied(Constraint d) {
    if (d.witness != null && d.witness.value == Problem.TRUE) {
      return true;
    }
    for (int i = 0; i < d.candidates.size(); i++) {
      Var v = d.candidates.peek(i);
      if (v != null && v.value == Problem.TRUE) {
        d.witness = v;
        return true;
      }
    }
    return false;
  }

  /**
   * Blocked without creating the candidate's variable when that is already decidable: an existing
   * variable is checked fully; a not-yet-created one is blocked when another bundle of its package
   * is chosen.
   */
  private boolean blocked(Candidates candidates, int i) {
    Var v = candidates.peek(i);
    if (v != null) {
      return blocked(v);
    }
    Group g = problem.packageGroup(candidates.packageName(i));
    return g != null && g.constraint.enabled && g.selected != null;
  }

  /** False, or another member of one of its groups is already chosen. */
  private boolean blocked(Var v) {
    if (v.value == Problem.TRUE) {
      return false;
    }
    if (v.value == Problem.FALSE) {
      return true;
    }
    // A bundle with a dependency nothing can satisfy can never be chosen, whatever else is chosen:
    // a fact
    // learned once it is first tried, which keeps the search from retrying it under every other
    // decision.
    for (Constraint d : v.dependencies) {
      if (d.enabled && d.candidates.size() == 0) {
        return true;
      }
    }
    for (Group g : v.groups) {
      if (g.constraint.enabled && g.selected != null && g.selected != v) {
        return true;
      }
    }
    return false;
  }

  private boolean select(Var v) {
    if (v.value == Problem.TRUE) {
      return true;
    }
    if (blocked(v)) {
      return false;
    }
    v.value = Problem.TRUE;
    push(v.index);
    for (Group g : v.groups) {
      if (g.constraint.enabled) {
        g.selected = v;
        push(-(g.index + 1));
      }
    }
    problem.expand(v);
    active.addAll(v.dependencies);
    return true;
  }

  private void push(int entry) {
    if (trailSize == trail.length) {
      trail = Arrays.copyOf(trail, trailSize * 2);
    }
    trail[trailSize++] = entry;
  }

  private void undo(int mark) {
    while (trailSize > mark) {
      int entry = trail[--trailSize];
      if (entry >= 0) {
        Var v = problem.vars.get(entry);
        if (v.value == Problem.TRUE) {
          active.subList(active.size() - v.dependencies.size(), active.size()).clear();
        }
        v.value = Problem.UNSET;
      } else {
        problem.groups.get(-entry - 1).selected = null;
      }
    }
  }
}
