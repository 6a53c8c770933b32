package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class StepReportsTest {
  private static final Instant APPROVED = Instant.parse("2026-11-22T10:00:00Z");
  private static final Instant BEFORE = APPROVED.minusSeconds(5);
  private static final Instant AFTER = APPROVED.plusSeconds(5);

  @Test
  void aReportAboutTheApprovedVersionCountsWhenever() {
    assertThat(StepReports.aboutThisStep("1.2.0", "1.0.0", "1.0.0", "1.2.0", BEFORE, APPROVED))
        .isTrue();
    assertThat(StepReports.aboutThisStep(null, "1.2.0", "1.0.0", "1.2.0", BEFORE, APPROVED))
        .isTrue();
  }

  @Test
  void anIntermediateStepOfThePathCountsOnlyWhenReportedAfterTheApproval() {
    assertThat(StepReports.aboutThisStep("1.1.0", "1.0.0", "1.0.0", "1.2.0", AFTER, APPROVED))
        .isTrue();
    assertThat(StepReports.aboutThisStep("1.1.0", "1.0.0", "1.0.0", "1.2.0", BEFORE, APPROVED))
        .isFalse();
  }

  @Test
  void aTargetOutsideThePathSaysNothingAboutThisStep() {
    // the version it ran before, an earlier failed attempt above the target, or something unrelated
    assertThat(StepReports.aboutThisStep("1.0.0", "1.0.0", "1.0.0", "1.2.0", AFTER, APPROVED))
        .isFalse();
    assertThat(StepReports.aboutThisStep("1.3.0", "1.0.0", "1.0.0", "1.2.0", AFTER, APPROVED))
        .isFalse();
    assertThat(StepReports.aboutThisStep("0.9.0", "1.0.0", "1.0.0", "1.2.0", AFTER, APPROVED))
        .isFalse();
    assertThat(StepReports.aboutThisStep("not-semver", "1.0.0", "1.0.0", "1.2.0", AFTER, APPROVED))
        .isFalse();
  }

  @Test
  void goingBackTheStepsLieBelowWhatRanBefore() {
    assertThat(StepReports.aboutThisStep("1.1.0", "1.2.0", "1.2.0", "1.0.0", AFTER, APPROVED))
        .isTrue();
    assertThat(StepReports.aboutThisStep("1.3.0", "1.2.0", "1.2.0", "1.0.0", AFTER, APPROVED))
        .isFalse();
  }

  @Test
  void aFirstInstallCountsAnyStepUpToTheApprovedVersion() {
    assertThat(StepReports.aboutThisStep("1.1.0", null, null, "1.2.0", AFTER, APPROVED)).isTrue();
    assertThat(StepReports.aboutThisStep("1.3.0", null, null, "1.2.0", AFTER, APPROVED)).isFalse();
  }

  @Test
  void nothingCountsForAClusterNotApprovedYet() {
    assertThat(StepReports.aboutThisStep("1.2.0", "1.2.0", "1.0.0", null, AFTER, null)).isFalse();
  }
}
