package io.olmstead.controlplane.edgerisk;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Whether the evidence on one edge and one set of facts holds a cluster (pure). Each attempt counts
 * with weight {@code 0.5^(age / halfLife)}, so recent evidence outweighs old. The edge is held when
 * at least one attempt failed and the weighted failures times {@code successesPerFailure} exceed
 * the weighted successes: with the default 10, a failure is outweighed by ten successes of the same
 * age, or by fewer newer ones. A person's acceptance lets clusters take the edge until a failure
 * newer than the acceptance is observed.
 */
public final class EdgeRiskRule {
  /**
   * How evidence is weighed: the half-life of its weight and how many successes outweigh one
   * failure.
   */
  public record Params(Duration halfLife, int successesPerFailure) {
    public static final Params DEFAULT = new Params(Duration.ofDays(14), 10);

    public Params {
      if (halfLife.isNegative() || halfLife.isZero() || successesPerFailure < 1) {
        throw new IllegalArgumentException(
            "halfLife must be positive and successesPerFailure at least 1");
      }
    }
  }

  /** One cluster's attempt at the edge: failed or succeeded, when. */
  public record Observation(boolean failed, Instant at) {}

  /**
   * The verdict: {@code HELD} (clusters wait), {@code ACCEPTED} (held but accepted), {@code CLEAR}.
   */
  public enum Verdict {
    HELD,
    ACCEPTED,
    CLEAR
  }

  /** The counts, their weights and the verdict. */
  public record Assessment(
      int failures,
      int successes,
      double failureWeight,
      double successWeight,
      Instant lastFailure,
      Verdict verdict) {
    public boolean holds() {
      return verdict == Verdict.HELD;
    }
  }

  private EdgeRiskRule() {}

  /**
   * The assessment of {@code evidence} at {@code now}; {@code acceptedAt} is the newest acceptance
   * that applies (null: none). Evidence dated after {@code now} (another replica's clock) weighs 1.
   */
  public static Assessment assess(
      List<Observation> evidence, Instant now, Instant acceptedAt, Params params) {
    int failures = 0;
    int successes = 0;
    double failureWeight = 0;
    double successWeight = 0;
    Instant lastFailure = null;
    for (Observation o : evidence) {
      double weight = weight(o.at(), now, params.halfLife());
      if (o.failed()) {
        failures++;
        failureWeight += weight;
        lastFailure = lastFailure == null || o.at().isAfter(lastFailure) ? o.at() : lastFailure;
      } else {
        successes++;
        successWeight += weight;
      }
    }
    boolean risky = failures >= 1 && failureWeight * params.successesPerFailure() > successWeight;
    Verdict verdict =
        !risky
            ? Verdict.CLEAR
            : acceptedAt != null && !lastFailure.isAfter(acceptedAt)
                ? Verdict.ACCEPTED
                : Verdict.HELD;
    return new Assessment(failures, successes, failureWeight, successWeight, lastFailure, verdict);
  }

  static double weight(Instant at, Instant now, Duration halfLife) {
    double age = Math.max(0, Duration.between(at, now).toMillis());
    return Math.pow(0.5, age / halfLife.toMillis());
  }
}
