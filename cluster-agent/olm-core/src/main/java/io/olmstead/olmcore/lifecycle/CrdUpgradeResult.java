package io.olmstead.olmcore.lifecycle;

import java.util.List;
import java.util.Optional;

/** The outcome of {@link CrdUpgradeCheck#check}: safe when there are no errors. */
public record CrdUpgradeResult(List<String> errors) {

  public CrdUpgradeResult {
    errors = errors == null ? List.of() : List.copyOf(errors);
  }

  public boolean safe() {
    return errors.isEmpty();
  }

  /** All errors in one message, as it would appear on a failed install plan. */
  public Optional<String> message() {
    return errors.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", errors));
  }
}
