package io.olmstead.olmcore.fbc;

import java.util.List;
import java.util.Optional;

/**
 * Outcome of {@link CatalogValidator#validate}: the indexed catalog (if accepted) plus every
 * finding.
 */
public record ValidationResult(
    Optional<Catalog> catalog, List<ValidationIssue> errors, List<ValidationIssue> warnings) {

  public ValidationResult {
    errors = List.copyOf(errors);
    warnings = List.copyOf(warnings);
  }
}
