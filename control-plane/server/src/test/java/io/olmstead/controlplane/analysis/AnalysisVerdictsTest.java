package io.olmstead.controlplane.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.analysis.AnalysisVerdicts.Result;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Status;
import io.olmstead.controlplane.analysis.AnalysisVerdicts.Tally;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The analysis decision table: what one answer of Prometheus counts as, and when a check ends. */
class AnalysisVerdictsTest {
  private static final SuccessIf BELOW_1PCT = SuccessIf.parse("< 0.01");

  static Stream<Arguments> measurements() {
    return Stream.of(
        Arguments.of(
            "every sample meets the condition",
            new QueryOutcome.Samples(List.of(0.0, 0.005)),
            Result.SUCCESS),
        Arguments.of(
            "one sample does not", new QueryOutcome.Samples(List.of(0.0, 0.5)), Result.FAILURE),
        Arguments.of(
            "a value exactly at the threshold of <",
            new QueryOutcome.Samples(List.of(0.01)),
            Result.FAILURE),
        Arguments.of(
            "no data (no series matched)",
            new QueryOutcome.Samples(List.of()),
            Result.INCONCLUSIVE),
        Arguments.of(
            "NaN (0/0 in PromQL)",
            new QueryOutcome.Samples(List.of(Double.NaN)),
            Result.INCONCLUSIVE),
        Arguments.of(
            "+Inf",
            new QueryOutcome.Samples(List.of(Double.POSITIVE_INFINITY)),
            Result.INCONCLUSIVE),
        Arguments.of(
            "Prometheus down",
            new QueryOutcome.Unavailable("Connection refused"),
            Result.INCONCLUSIVE),
        Arguments.of(
            "Prometheus timed out",
            new QueryOutcome.Unavailable("no answer within 10s"),
            Result.INCONCLUSIVE),
        Arguments.of("garbage", PromResponse.parse(200, "<html>oops</html>"), Result.INCONCLUSIVE),
        Arguments.of(
            "a refused query", new QueryOutcome.Refused("parse error"), Result.INCONCLUSIVE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("measurements")
  void oneMeasurement(String what, QueryOutcome outcome, Result expected) {
    assertThat(AnalysisVerdicts.measure(BELOW_1PCT, outcome).result()).isEqualTo(expected);
  }

  static Stream<Arguments> statuses() {
    // tally (successes, failures, inconclusives); count 3, failureLimit 1, inconclusiveLimit 1
    return Stream.of(
        Arguments.of(new Tally(0, 0, 0), Status.RUNNING),
        Arguments.of(new Tally(2, 0, 0), Status.RUNNING),
        Arguments.of(new Tally(3, 0, 0), Status.PASSED),
        Arguments.of(new Tally(2, 1, 0), Status.PASSED),
        Arguments.of(new Tally(1, 2, 0), Status.FAILED),
        Arguments.of(new Tally(0, 2, 2), Status.FAILED),
        Arguments.of(new Tally(1, 0, 2), Status.INCONCLUSIVE),
        Arguments.of(new Tally(1, 1, 1), Status.PASSED));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("statuses")
  void aCheckOnOneCluster(Tally tally, Status expected) {
    assertThat(AnalysisVerdicts.status(tally, 3, 1, 1)).isEqualTo(expected);
  }

  @Test
  void noDataAndAnOutageNeverMakeACheckPassWhateverTheLimits() {
    Tally tally = Tally.NONE;
    for (int i = 0; i < 5; i++) {
      tally =
          tally.plus(
              AnalysisVerdicts.measure(BELOW_1PCT, new QueryOutcome.Samples(List.of())).result());
      assertThat(AnalysisVerdicts.status(tally, 1, 0, 0)).isNotEqualTo(Status.PASSED);
    }
    assertThat(AnalysisVerdicts.status(new Tally(0, 0, 1), 1, 0, 0)).isEqualTo(Status.INCONCLUSIVE);
  }

  @Test
  void aFailureNamesTheValueThatFailed() {
    var m =
        AnalysisVerdicts.measure(
            SuccessIf.parse(">= 0.99"), new QueryOutcome.Samples(List.of(1.0, 0.5)));
    assertThat(m.result()).isEqualTo(Result.FAILURE);
    assertThat(m.value()).isEqualTo(0.5);
    assertThat(m.reason()).contains(">= 0.99");
  }
}
