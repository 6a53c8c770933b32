package io.olmstead.olmcore.fbc;

import java.util.List;

/**
 * An {@code olm.constraint} property (operator-framework/api {@code constraints.Constraint}): an
 * optional failure message plus exactly one form. When a value sets several forms, OLM's resolver
 * uses the first of gvk, package, all, any, not, cel, and so does {@link Bundle#constraints()}; the
 * deprecated {@code none} is accepted and ignored.
 */
public sealed interface Constraint {

  /** The message to surface when the constraint cannot be satisfied; null when not given. */
  String failureMessage();

  /** Requires a bundle providing exactly this API. */
  record GvkConstraint(String failureMessage, Gvk gvk) implements Constraint {}

  /** Requires a bundle of a package with a version in a blang range (the range parses). */
  record PackageConstraint(String failureMessage, PackageRequirement requirement)
      implements Constraint {}

  /** A CEL rule over the candidate's properties (kept as text: not evaluated here). */
  record Cel(String failureMessage, String rule) implements Constraint {}

  /** Every nested constraint must hold. */
  record All(String failureMessage, List<Constraint> constraints) implements Constraint {
    public All {
      constraints = List.copyOf(constraints);
    }
  }

  /** At least one nested constraint must hold. */
  record Any(String failureMessage, List<Constraint> constraints) implements Constraint {
    public Any {
      constraints = List.copyOf(constraints);
    }
  }

  /** None of the nested constraints may hold. */
  record Not(String failureMessage, List<Constraint> constraints) implements Constraint {
    public Not {
      constraints = List.copyOf(constraints);
    }
  }
}
