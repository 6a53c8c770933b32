package io.olmstead.controlplane.analysis;

import java.util.List;

/** What asking Prometheus for one query gave: sample values, or why there are none. */
public sealed interface QueryOutcome {
  /**
   * The samples of an instant vector (or the one value of a scalar); empty: the query matched no
   * series.
   */
  record Samples(List<Double> values) implements QueryOutcome {
    public Samples {
      values = List.copyOf(values);
    }
  }

  /** Prometheus refused the query ({@code bad_data}: it does not parse or cannot be evaluated). */
  record Refused(String message) implements QueryOutcome {}

  /**
   * No usable answer: unreachable, timed out, an HTTP error, a body that is not Prometheus' JSON or
   * too large.
   */
  record Unavailable(String reason) implements QueryOutcome {}
}
