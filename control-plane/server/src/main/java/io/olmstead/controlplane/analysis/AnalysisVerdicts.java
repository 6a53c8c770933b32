package io.olmstead.controlplane.analysis;

import java.util.List;

/**
 * The analysis decision table (pure). One measurement: every sample meets the condition, a success;
 * one sample does not, a failure; no sample (no data), a NaN or infinite sample, a refused query or
 * no usable answer from Prometheus (down, timed out, garbage), inconclusive: never a success. A
 * check on one cluster: more failures than {@code failureLimit}, failed; more inconclusive
 * measurements than {@code inconclusiveLimit}, inconclusive; else, after {@code count}
 * measurements, passed; else running.
 */
public final class AnalysisVerdicts {
  private AnalysisVerdicts() {}

  /** One measurement's result. */
  public enum Result {
    SUCCESS,
    FAILURE,
    INCONCLUSIVE
  }

  /** A check's status on one cluster. */
  public enum Status {
    RUNNING,
    PASSED,
    FAILED,
    INCONCLUSIVE;

    /** Whether the check ended (no more measurements). */
    public boolean ended() {
      return this != RUNNING;
    }
  }

  /** A measurement: its result, the value it is about (null: none) and a short reason. */
  public record Measurement(Result result, Double value, String reason) {}

  /** The measurements so far of one check on one cluster. */
  public record Tally(int successes, int failures, int inconclusives) {
    public static final Tally NONE = new Tally(0, 0, 0);

    public int measurements() {
      return successes + failures + inconclusives;
    }

    public Tally plus(Result r) {
      return new Tally(
          successes + (r == Result.SUCCESS ? 1 : 0),
          failures + (r == Result.FAILURE ? 1 : 0),
          inconclusives + (r == Result.INCONCLUSIVE ? 1 : 0));
    }
  }

  public static Measurement measure(SuccessIf condition, QueryOutcome outcome) {
    if (outcome instanceof QueryOutcome.Unavailable u) {
      return new Measurement(Result.INCONCLUSIVE, null, "Prometheus unavailable: " + u.reason());
    }
    if (outcome instanceof QueryOutcome.Refused r) {
      return new Measurement(
          Result.INCONCLUSIVE, null, "Prometheus refused the query: " + r.message());
    }
    List<Double> values = ((QueryOutcome.Samples) outcome).values();
    if (values.isEmpty()) {
      return new Measurement(Result.INCONCLUSIVE, null, "no data");
    }
    for (Double v : values) {
      if (!Double.isFinite(v)) {
        return new Measurement(Result.INCONCLUSIVE, v, "not a finite number");
      }
    }
    for (Double v : values) {
      if (!condition.test(v)) {
        return new Measurement(Result.FAILURE, v, "does not meet " + condition);
      }
    }
    return new Measurement(Result.SUCCESS, values.get(0), "meets " + condition);
  }

  public static Status status(Tally tally, int count, int failureLimit, int inconclusiveLimit) {
    if (tally.failures() > failureLimit) {
      return Status.FAILED;
    }
    if (tally.inconclusives() > inconclusiveLimit) {
      return Status.INCONCLUSIVE;
    }
    return tally.measurements() >= count ? Status.PASSED : Status.RUNNING;
  }
}
