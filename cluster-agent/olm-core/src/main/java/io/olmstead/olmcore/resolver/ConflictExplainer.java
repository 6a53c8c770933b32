package io.olmstead.olmcore.resolver;

import io.olmstead.olmcore.resolver.Problem.Constraint;
import io.olmstead.olmcore.resolver.Problem.Group;
import java.util.ArrayList;
import java.util.List;

/**
 * Explains an unsatisfiable problem the way OLM does: {@code constraints not satisfiable: }
 * followed by a minimal set of constraints that cannot hold together, found by deletion (drop a
 * constraint; if the rest is still unsatisfiable it was not needed).
 */
final class ConflictExplainer {
  static final String PREFIX = "constraints not satisfiable";

  private ConflictExplainer() {}

  /**
   * @param perSolveBudget node budget of each trial solve
   * @param totalBudget node budget for the whole minimisation; when spent the set found so far is
   *     reported
   */
  static String explain(Problem problem, long perSolveBudget, long totalBudget) {
    problem.expandAll();
    List<Constraint> candidates = new ArrayList<>(problem.ordered);
    // API groups are tried for deletion before package groups so that, when both explain a
    // conflict,
    // the package one ("originate from package") is what remains, as upstream usually reports.
    for (boolean packages : new boolean[] {false, true}) {
      for (Group g : problem.groups) {
        if (g.isPackage == packages) {
          // A group with one member constrains nothing; leave it out from the start.
          g.constraint.enabled = g.members.size() > 1;
          if (g.constraint.enabled) {
            candidates.add(g.constraint);
          }
        }
      }
    }
    long spent = 0;
    for (Constraint c : candidates) {
      if (spent > totalBudget) {
        break;
      }
      c.enabled = false;
      Solver trial = new Solver(problem, perSolveBudget);
      boolean stillUnsatisfiable;
      try {
        stillUnsatisfiable = !trial.solve();
      } catch (Solver.BudgetExceeded e) {
        stillUnsatisfiable = false;
      }
      spent += trial.nodes();
      c.enabled = !stillUnsatisfiable;
    }
    List<String> messages = new ArrayList<>();
    for (Constraint c : candidates) {
      if (c.enabled) {
        messages.add(c.describe());
      }
    }
    return messages.isEmpty() ? PREFIX : PREFIX + ": " + String.join(", ", messages);
  }
}
