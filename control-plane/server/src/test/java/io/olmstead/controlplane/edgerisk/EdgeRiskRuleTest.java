package io.olmstead.controlplane.edgerisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.edgerisk.EdgeRiskRule.Observation;
import io.olmstead.controlplane.edgerisk.EdgeRiskRule.Params;
import io.olmstead.controlplane.edgerisk.EdgeRiskRule.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The edge-risk rule as a table: evidence written as {@code F@age} (a failure {@code age} days old)
 * and {@code S@age} (a success), an acceptance's age in days (blank: none), and the verdict under
 * the default parameters (half-life 14 days, 10 successes outweigh a failure).
 */
class EdgeRiskRuleTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  @ParameterizedTest(name = "{0} accepted {1} days ago -> {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
      # evidence                                   | accepted | verdict  | why
      -                                            | -        | CLEAR    | no evidence, nothing to hold
      S@0 S@1 S@2                                  | -        | CLEAR    | successes alone never hold
      F@0                                          | -        | HELD     | one failure holds
      F@365                                        | -        | HELD     | an old failure alone still holds: it does not expire
      F@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0      | -        | HELD     | nine successes of the same age do not outweigh it
      F@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0  | -        | CLEAR    | ten do (not more than 10 x 1)
      F@28 S@0 S@0 S@0                             | -        | CLEAR    | a failure two half-lives old weighs 1/4: 3 > 2.5
      F@28 S@0 S@0                                 | -        | HELD     | 2 < 2.5
      F@0 S@28 S@28 S@28 S@28 S@28 S@28 S@28 S@28  | -        | HELD     | old successes weigh less than a new failure
      F@0 F@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 | -     | HELD     | two failures need twenty successes
      F@3                                          | 1        | ACCEPTED | accepted after the last failure
      F@3 F@0                                      | 1        | HELD     | a failure after the acceptance holds again
      F@1                                          | 1        | ACCEPTED | accepted at the failure's instant covers it
      F@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0 S@0  | 5        | CLEAR    | no risk: the acceptance does not matter
      F@-1                                         | -        | HELD     | evidence from a clock ahead weighs 1
      """)
  void verdictOfTheEvidence(String evidence, Integer acceptedDaysAgo, Verdict verdict, String why) {
    EdgeRiskRule.Assessment a =
        EdgeRiskRule.assess(
            parse(evidence),
            NOW,
            acceptedDaysAgo == null ? null : NOW.minus(Duration.ofDays(acceptedDaysAgo)),
            Params.DEFAULT);
    assertThat(a.verdict()).as(why).isEqualTo(verdict);
    assertThat(a.holds()).isEqualTo(verdict == Verdict.HELD);
  }

  @Test
  void countsAndWeighsEachKindApart() {
    EdgeRiskRule.Assessment a =
        EdgeRiskRule.assess(parse("F@14 F@0 S@14"), NOW, null, Params.DEFAULT);
    assertThat(a.failures()).isEqualTo(2);
    assertThat(a.successes()).isEqualTo(1);
    assertThat(a.failureWeight()).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(a.successWeight()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(a.lastFailure()).isEqualTo(NOW);
  }

  @Test
  void theParametersChangeTheBalance() {
    // with 2 successes per failure, two successes outweigh a failure of the same age
    Params lenient = new Params(Duration.ofDays(14), 2);
    assertThat(EdgeRiskRule.assess(parse("F@0 S@0 S@0"), NOW, null, lenient).verdict())
        .isEqualTo(Verdict.CLEAR);
    assertThat(EdgeRiskRule.assess(parse("F@0 S@0"), NOW, null, lenient).verdict())
        .isEqualTo(Verdict.HELD);
    // with a one-day half-life a failure a week old weighs 1/128
    Params quick = new Params(Duration.ofDays(1), 10);
    assertThat(EdgeRiskRule.assess(parse("F@7 S@0"), NOW, null, quick).verdict())
        .isEqualTo(Verdict.CLEAR);
  }

  @Test
  void refusesParametersThatMakeNoSense() {
    assertThatThrownBy(() -> new Params(Duration.ZERO, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Params(Duration.ofDays(1), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static List<Observation> parse(String evidence) {
    List<Observation> out = new ArrayList<>();
    if (evidence == null) {
      return out;
    }
    for (String token : evidence.trim().split("\\s+")) {
      String[] parts = token.split("@");
      out.add(
          new Observation(
              parts[0].equals("F"), NOW.minus(Duration.ofDays(Long.parseLong(parts[1])))));
    }
    return out;
  }
}
