package io.olmstead.controlplane.edgerisk;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.edgerisk.ReportedEdge.Attempt;
import io.olmstead.controlplane.edgerisk.ReportedEdge.State;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which upgrade-edge attempt a status report tells of, given what was stored before it: the whole
 * table.
 */
class ReportedEdgeTest {
  private static State s(String installed, String target, String phase) {
    return new State(installed, target, phase, null, null);
  }

  static Stream<Arguments> table() {
    Attempt failed = new Attempt("0.2.0", "0.3.0", true, "InstallCheckFailed: install failed");
    Attempt succeeded = new Attempt("0.2.0", "0.3.0", false, "running 0.3.0");
    State failing = new State("0.2.0", "0.3.0", "Failed", "InstallCheckFailed", "install failed");
    return Stream.of(
        Arguments.of(
            "a failure moving up is an attempt",
            s("0.2.0", "0.3.0", "Installing"),
            failing,
            failed),
        Arguments.of("a failure with nothing stored before", null, failing, failed),
        Arguments.of(
            "the same failure reported again is not a new attempt", failing, failing, null),
        Arguments.of(
            "a failure on another edge after one is",
            s("0.2.0", "0.2.5", "Failed"),
            failing,
            failed),
        Arguments.of(
            "a failure without a reason keeps the message",
            s("0.2.0", "0.2.0", "Succeeded"),
            new State("0.2.0", "0.3.0", "Failed", null, "boom"),
            new Attempt("0.2.0", "0.3.0", true, "boom")),
        Arguments.of(
            "a failure of a first install is no edge", null, s(null, "0.3.0", "Failed"), null),
        Arguments.of(
            "a failure at the version running is no edge",
            null,
            s("0.3.0", "0.3.0", "Failed"),
            null),
        Arguments.of(
            "a failed rollback is no upgrade edge", null, s("0.3.0", "0.2.0", "Failed"), null),
        Arguments.of(
            "a package OLM manages is no edge",
            null,
            new State("0.2.0", "0.3.0", "Failed", "ManagedByOLM", "left to OLM"),
            null),
        Arguments.of("unparsable versions are no edge", null, s("latest", "next", "Failed"), null),
        Arguments.of(
            "reaching a higher version is a success",
            s("0.2.0", "0.3.0", "Installing"),
            s("0.3.0", "0.3.0", "Succeeded"),
            succeeded),
        Arguments.of(
            "reaching it after failing is a success",
            failing,
            s("0.3.0", "0.3.0", "Succeeded"),
            succeeded),
        Arguments.of(
            "succeeding where it ran is no edge",
            s("0.2.0", "0.2.0", "Succeeded"),
            s("0.2.0", "0.2.0", "Succeeded"),
            null),
        Arguments.of("a first install is no edge", null, s("0.3.0", "0.3.0", "Succeeded"), null),
        Arguments.of(
            "a rollback is no upgrade edge",
            s("0.3.0", "0.2.0", "Installing"),
            s("0.2.0", "0.2.0", "Succeeded"),
            null),
        Arguments.of(
            "installing is no outcome yet",
            s("0.2.0", "0.2.0", "Succeeded"),
            s("0.2.0", "0.3.0", "Installing"),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void tellsOfTheAttemptOfTheReport(String why, State before, State now, Attempt expected) {
    assertThat(ReportedEdge.of(before, now)).isEqualTo(Optional.ofNullable(expected));
  }

  @Test
  void anAttemptIsEvidenceOnlyTowardsTheVersionTheClusterWasSent() {
    Attempt attempt = new Attempt("1.0.0", "2.0.0", true, "InstallCheckFailed");
    assertThat(ReportedEdge.asked(attempt, "2.0.0")).isTrue();
    assertThat(ReportedEdge.asked(attempt, "3.0.0")).as("sent another version").isFalse();
    assertThat(ReportedEdge.asked(attempt, null)).as("sent nothing").isFalse();
  }
}
