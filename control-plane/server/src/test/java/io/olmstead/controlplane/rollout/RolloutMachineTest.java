package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Phase;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RolloutMachineTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final Map<String, Report> reports = new HashMap<>();

  private Rollout rollout(int clusters, String strategy) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    for (int i = 0; i < clusters; i++) {
      String name = "c" + i;
      fleet.add(new WavePlanner.PlanCluster(name, Map.of()));
      versions.put(name, "1.0.0");
      reports.put(name, Report.connected("1.0.0", "Succeeded"));
    }
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject(strategy));
    return RolloutMachine.initial("r1", "sub", "2.0.0", s, WavePlanner.plan(fleet, s), versions);
  }

  private void upgraded(String... clusters) {
    for (String c : clusters) {
      reports.put(c, Report.connected("2.0.0", "Succeeded"));
    }
  }

  private static List<String> approved(Rollout r) {
    return r.members().values().stream()
        .filter(m -> m.approvedVersion() != null)
        .map(Member::cluster)
        .toList();
  }

  private static List<String> kinds(StepResult s) {
    return s.transitions().stream().map(Transition::kind).toList();
  }

  @Test
  void firstStepOpensTheCanaryAndApprovesOnlyItsClusters() {
    StepResult s =
        RolloutMachine.step(rollout(5, "{\"canary\":{\"count\":1},\"batchSize\":2}"), reports, T0);
    assertThat(approved(s.rollout())).containsExactly("c0");
    assertThat(s.rollout().waves().get(0).state()).isEqualTo(WaveState.Open);
    assertThat(s.rollout().waves().get(1).state()).isEqualTo(WaveState.Pending);
    assertThat(kinds(s)).containsExactly("WaveOpened", "ClusterApproved");
  }

  @Test
  void aClusterWhoseHostedClusterIsPausedIsNeverApprovedAndItsWaveWaitsForIt() {
    Rollout r = rollout(3, "{\"batchSize\":3}");
    reports.put("c1", Report.connected("1.0.0", "Succeeded").whilePaused());
    StepResult s = RolloutMachine.step(r, reports, T0);
    assertThat(approved(s.rollout())).containsExactly("c0", "c2");
    assertThat(s.rollout().members().get("c1").message())
        .isEqualTo("held: its HostedCluster is paused");
    upgraded("c0", "c2");
    StepResult waiting = RolloutMachine.step(s.rollout(), reports, T0.plusSeconds(600));
    assertThat(waiting.rollout().waves().get(0).state())
        .as("held, the wave cannot soak")
        .isEqualTo(WaveState.Open);
    assertThat(RolloutMachine.step(waiting.rollout(), reports, T0.plusSeconds(601)).changed())
        .isFalse();

    reports.put("c1", Report.connected("1.0.0", "Succeeded"));
    StepResult resumed = RolloutMachine.step(waiting.rollout(), reports, T0.plusSeconds(602));
    assertThat(approved(resumed.rollout())).contains("c1");
  }

  @Test
  void steppingAgainWithTheSameInputsChangesNothing() {
    StepResult first =
        RolloutMachine.step(rollout(5, "{\"canary\":{\"count\":1},\"batchSize\":2}"), reports, T0);
    StepResult again = RolloutMachine.step(first.rollout(), reports, T0);
    assertThat(again.changed()).isFalse();
    assertThat(again.rollout()).isEqualTo(first.rollout());
  }

  @Test
  void waveSucceedsOnlyAfterItsClustersReportTheTargetAndTheSoakPassed() {
    Rollout r =
        RolloutMachine.step(
                rollout(3, "{\"canary\":{\"count\":1},\"batchSize\":2,\"soakSeconds\":60}"),
                reports,
                T0)
            .rollout();
    upgraded("c0");
    StepResult soaking = RolloutMachine.step(r, reports, T0.plusSeconds(5));
    assertThat(kinds(soaking)).containsExactly("ClusterSucceeded", "WaveSoaking");
    assertThat(approved(soaking.rollout())).containsExactly("c0");
    StepResult early = RolloutMachine.step(soaking.rollout(), reports, T0.plusSeconds(64));
    assertThat(early.changed()).isFalse();
    StepResult next = RolloutMachine.step(soaking.rollout(), reports, T0.plusSeconds(65));
    assertThat(kinds(next))
        .containsExactly("WaveSucceeded", "WaveOpened", "ClusterApproved", "ClusterApproved");
    assertThat(approved(next.rollout())).containsExactly("c0", "c1", "c2");
  }

  @Test
  void rolloutSucceedsAfterTheLastWave() {
    Rollout r = RolloutMachine.step(rollout(4, "{\"batchSize\":2}"), reports, T0).rollout();
    upgraded("c0", "c1");
    r = RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout();
    upgraded("c2", "c3");
    StepResult done = RolloutMachine.step(r, reports, T0.plusSeconds(2));
    assertThat(done.rollout().phase()).isEqualTo(Phase.Succeeded);
    assertThat(done.rollout().waves()).allMatch(w -> w.state() == WaveState.Succeeded);
    assertThat(RolloutMachine.step(done.rollout(), reports, T0.plusSeconds(3)).changed()).isFalse();
  }

  @Test
  void aClusterPastTheProgressDeadlineFailsAndOverBudgetPauses() {
    Rollout r =
        RolloutMachine.step(
                rollout(4, "{\"batchSize\":2,\"progressDeadlineSeconds\":30}"), reports, T0)
            .rollout();
    upgraded("c0");
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(30));
    assertThat(s.rollout().members().get("c1").step()).isEqualTo(Step.Failed);
    assertThat(s.rollout().members().get("c1").message()).contains("deadline");
    assertThat(s.rollout().phase()).isEqualTo(Phase.Paused);
    assertThat(approved(s.rollout())).containsExactly("c0", "c1");
  }

  @Test
  void failuresWithinTheBudgetLetTheRolloutContinue() {
    Rollout r =
        RolloutMachine.step(rollout(4, "{\"batchSize\":2,\"maxFailures\":1}"), reports, T0)
            .rollout();
    upgraded("c0");
    reports.put("c1", Report.connected("1.0.0", "Failed").withMessage("install plan failed"));
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(1));
    assertThat(s.rollout().phase()).isEqualTo(Phase.Progressing);
    assertThat(s.rollout().members().get("c1").message()).isEqualTo("install plan failed");
    assertThat(approved(s.rollout())).containsExactly("c0", "c1", "c2", "c3");
  }

  @Test
  void
      aClusterAlreadyFailingWhenApprovedThatSaysNothingNewIsStillFailedAfterTheGraceOutsideTheBudget() {
    Rollout r = RolloutMachine.step(rollout(2, "{\"batchSize\":2}"), reports, T0).rollout();
    reports.put(
        "c1",
        Report.connected(null, null)
            .withMessage("InstallCheckFailed: deployment op exceeded its progress deadline")
            .failingBeforeItsApproval());
    StepResult early =
        RolloutMachine.step(
            r, reports, T0.plus(RolloutMachine.STALE_FAILURE_GRACE).minusSeconds(1));
    assertThat(early.rollout().members().get("c1").step())
        .as("the agent may still answer")
        .isEqualTo(Step.Progressing);
    StepResult s = RolloutMachine.step(r, reports, T0.plus(RolloutMachine.STALE_FAILURE_GRACE));
    assertThat(s.rollout().members().get("c1").step()).isEqualTo(Step.StillFailed);
    assertThat(s.rollout().members().get("c1").message())
        .startsWith("still Failed as before its approval: ")
        .contains("InstallCheckFailed");
    assertThat(kinds(s)).contains("ClusterStillFailed");
    assertThat(s.rollout().phase())
        .as("failing before the rollout is not the rollout's failure")
        .isEqualTo(Phase.Progressing);
  }

  @Test
  void aClusterStillFailedThatFailsAgainCountsAgainstTheBudget() {
    Rollout r = RolloutMachine.step(rollout(2, "{\"batchSize\":1}"), reports, T0).rollout();
    reports.put(
        "c0",
        Report.connected(null, null)
            .withMessage("InstallCheckFailed: old")
            .failingBeforeItsApproval());
    r = RolloutMachine.step(r, reports, T0.plus(RolloutMachine.STALE_FAILURE_GRACE)).rollout();
    assertThat(r.members().get("c0").step()).isEqualTo(Step.StillFailed);
    assertThat(r.phase()).isEqualTo(Phase.Progressing);
    assertThat(approved(r)).as("a settled wave lets the next one open").containsExactly("c0", "c1");
    reports.put("c0", Report.connected("1.0.0", "Failed").withMessage("InstallCheckFailed: new"));
    StepResult again = RolloutMachine.step(r, reports, T0.plusSeconds(60));
    assertThat(again.rollout().members().get("c0").step()).isEqualTo(Step.Failed);
    assertThat(again.rollout().members().get("c0").message())
        .isEqualTo("failed again: InstallCheckFailed: new");
    assertThat(again.rollout().phase()).isEqualTo(Phase.Paused);
  }

  @Test
  void overBudgetWithOnFailureFailEndsTheRolloutFailedAndKeepsItsApprovals() {
    Rollout r =
        RolloutMachine.step(rollout(4, "{\"batchSize\":2,\"onFailure\":\"fail\"}"), reports, T0)
            .rollout();
    reports.put("c1", Report.connected("1.0.0", "Failed").withMessage("boom"));
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(1));
    assertThat(s.rollout().phase()).isEqualTo(Phase.Failed);
    assertThat(s.rollout().message()).contains("exceed the budget");
    assertThat(kinds(s)).endsWith("Failed");
    assertThat(approved(s.rollout())).containsExactly("c0", "c1");
    assertThat(RolloutMachine.step(s.rollout(), reports, T0.plusSeconds(2)).changed())
        .as("Failed is final")
        .isFalse();
  }

  @Test
  void overBudgetWithRollbackReturnsApprovedClustersToTheirPreviousVersion() {
    Rollout r =
        RolloutMachine.step(rollout(4, "{\"batchSize\":2,\"onFailure\":\"rollback\"}"), reports, T0)
            .rollout();
    upgraded("c0");
    reports.put("c1", Report.connected("1.0.0", "Failed").withMessage("boom"));
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(1));
    assertThat(s.rollout().phase()).isEqualTo(Phase.RolledBack);
    assertThat(s.rollout().members().get("c0").approvedVersion()).isEqualTo("1.0.0");
    assertThat(s.rollout().members().get("c0").step()).isEqualTo(Step.RolledBack);
    assertThat(s.rollout().members().get("c2").approvedVersion()).isNull();
    assertThat(kinds(s)).endsWith("RolledBack");
  }

  @Test
  void offlineClustersWaitInsteadOfFailingAndCountAsUnavailable() {
    reports.clear();
    Rollout r = rollout(4, "{\"batchSize\":4,\"maxUnavailable\":2,\"progressDeadlineSeconds\":10}");
    reports.put("c0", Report.disconnected("1.0.0", "Succeeded"));
    StepResult s = RolloutMachine.step(r, reports, T0);
    // c0 offline counts as unavailable, c1 fills the second slot; c2 and c3 wait; c0 is approved
    // for when it returns
    assertThat(approved(s.rollout())).containsExactly("c0", "c1");
    StepResult later = RolloutMachine.step(s.rollout(), reports, T0.plusSeconds(100));
    assertThat(later.rollout().members().get("c0").step()).isEqualTo(Step.Progressing);
    assertThat(later.rollout().members().get("c1").step()).isEqualTo(Step.Failed);
  }

  @Test
  void maxUnavailableApprovesMoreAsClustersFinish() {
    Rollout r =
        RolloutMachine.step(rollout(3, "{\"batchSize\":3,\"maxUnavailable\":1}"), reports, T0)
            .rollout();
    assertThat(approved(r)).containsExactly("c0");
    upgraded("c0");
    r = RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout();
    assertThat(approved(r)).containsExactly("c0", "c1");
  }

  @Test
  void pausedRolloutsApproveNothingButStillRecordResults() {
    Rollout r = RolloutMachine.step(rollout(4, "{\"batchSize\":2}"), reports, T0).rollout();
    r = RolloutMachine.command(r, "pause", "alice").rollout();
    upgraded("c0", "c1");
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(1000));
    assertThat(kinds(s)).containsExactly("ClusterSucceeded", "ClusterSucceeded");
    assertThat(approved(s.rollout())).containsExactly("c0", "c1");
    Rollout resumed = RolloutMachine.command(s.rollout(), "resume", "alice").rollout();
    assertThat(approved(RolloutMachine.step(resumed, reports, T0.plusSeconds(1001)).rollout()))
        .containsExactly("c0", "c1", "c2", "c3");
  }

  @Test
  void resumingAcceptsTheFailuresSoFar() {
    Rollout r = RolloutMachine.step(rollout(4, "{\"batchSize\":2}"), reports, T0).rollout();
    reports.put("c0", Report.connected("1.0.0", "Failed").withMessage("boom"));
    upgraded("c1");
    r = RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout();
    assertThat(r.phase()).isEqualTo(Phase.Paused);
    r = RolloutMachine.command(r, "resume", "bob").rollout();
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(2));
    assertThat(s.rollout().phase()).isEqualTo(Phase.Progressing);
    assertThat(approved(s.rollout())).contains("c2", "c3");
  }

  @Test
  void promoteOpensTheNextWaveAtOnce() {
    Rollout r = RolloutMachine.step(rollout(4, "{\"batchSize\":2}"), reports, T0).rollout();
    r = RolloutMachine.command(r, "promote", "alice").rollout();
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(1));
    assertThat(kinds(s)).contains("WavePromoted", "WaveOpened");
    assertThat(approved(s.rollout())).containsExactly("c0", "c1", "c2", "c3");
    assertThat(s.rollout().promoteRequested()).isFalse();
  }

  @Test
  void abortedRolloutsNeverChangeAgain() {
    Rollout r = RolloutMachine.step(rollout(4, "{\"batchSize\":2}"), reports, T0).rollout();
    r = RolloutMachine.command(r, "abort", "alice").rollout();
    assertThat(r.phase()).isEqualTo(Phase.Aborted);
    upgraded("c0", "c1");
    assertThat(RolloutMachine.step(r, reports, T0.plusSeconds(5)).changed()).isFalse();
    Rollout ended = r;
    assertThatThrownBy(() -> RolloutMachine.command(ended, "resume", "alice"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> RolloutMachine.command(ended, "rollback", "alice"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void blockedClustersSettleWithoutCountingAsFailures() {
    Rollout r = RolloutMachine.step(rollout(2, "{\"batchSize\":1}"), reports, T0).rollout();
    reports.put("c0", Report.connected("1.0.0", "Succeeded").blockedBy("Upgradeable=False"));
    StepResult s = RolloutMachine.step(r, reports, T0.plusSeconds(1));
    assertThat(s.rollout().members().get("c0").step()).isEqualTo(Step.Blocked);
    assertThat(s.rollout().phase()).isEqualTo(Phase.Progressing);
    assertThat(approved(s.rollout())).containsExactly("c0", "c1");
  }

  @Test
  void aRolloutThatEndsWithClustersNotAtTheTargetSucceedsWithExceptionsNamingEachAndItsReason() {
    Rollout r =
        RolloutMachine.step(rollout(3, "{\"batchSize\":3,\"maxFailures\":1}"), reports, T0)
            .rollout();
    upgraded("c0");
    reports.put(
        "c1", Report.connected("1.0.0", "Succeeded").blockedBy("Upgradeable=False: migrating"));
    reports.put("c2", Report.connected("1.0.0", "Failed").withMessage("image pull failed"));
    StepResult done = RolloutMachine.step(r, reports, T0.plusSeconds(1));

    assertThat(done.rollout().phase()).isEqualTo(Phase.SucceededWithExceptions);
    assertThat(done.rollout().phase().completed()).isTrue();
    assertThat(done.rollout().message())
        .isEqualTo(
            "2 of 3 clusters not at 2.0.0: "
                + "c1 (Blocked: Upgradeable=False: migrating); c2 (Failed: image pull failed)");
    assertThat(kinds(done)).endsWith("SucceededWithExceptions");
    assertThat(RolloutMachine.step(done.rollout(), reports, T0.plusSeconds(3)).changed()).isFalse();
  }

  @Test
  void theEndNamesAtMostTwentyClustersAndCountsTheRest() {
    Rollout r = RolloutMachine.step(rollout(25, "{\"batchSize\":25}"), reports, T0).rollout();
    for (int i = 0; i < 25; i++) {
      reports.put("c" + i, Report.connected("1.0.0", "Succeeded").blockedBy("Upgradeable=False"));
    }
    Rollout done =
        RolloutMachine.step(
                RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout(),
                reports,
                T0.plusSeconds(2))
            .rollout();
    assertThat(done.phase()).isEqualTo(Phase.SucceededWithExceptions);
    assertThat(done.message())
        .startsWith("25 of 25 clusters not at 2.0.0: ")
        .endsWith("; and 5 more");
    assertThat(done.message().split("\\(Blocked: Upgradeable=False\\)", -1)).hasSize(21);
  }

  @Test
  void newcomersAreHeldAtTheStartVersionAndJoinTheWaveInProgressNeverTheCanary() {
    Rollout r = rollout(6, "{\"batchSize\":2}");
    assertThat(RolloutJoiners.holdVersion(r)).contains("1.0.0");
    assertThat(RolloutJoiners.joinWave(r)).isEqualTo(1);
    r = RolloutMachine.step(r, reports, T0).rollout();
    upgraded("c0", "c1");
    r = RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout();
    upgraded("c2", "c3");
    r = RolloutMachine.step(r, reports, T0.plusSeconds(2)).rollout();
    r = RolloutMachine.step(r, reports, T0.plusSeconds(3)).rollout();
    assertThat(r.waves().get(1).state()).isEqualTo(WaveState.Succeeded);
    assertThat(RolloutJoiners.joinWave(r)).isEqualTo(2);
    assertThat(RolloutJoiners.holdVersion(r)).contains("1.0.0");
  }

  @Test
  void aClusterBackOnlineGetsItsDeadlineCountedFromItsReturn() {
    reports.clear();
    Rollout r = rollout(1, "{\"batchSize\":1,\"progressDeadlineSeconds\":10}");
    reports.put("c0", Report.disconnected("1.0.0", "Succeeded"));
    r = RolloutMachine.step(r, reports, T0).rollout();
    reports.put("c0", Report.connected("1.0.0", "Succeeded").connectedSince(T0.plusSeconds(100)));
    StepResult back = RolloutMachine.step(r, reports, T0.plusSeconds(105));
    assertThat(back.rollout().members().get("c0").step()).isEqualTo(Step.Progressing);
    StepResult late = RolloutMachine.step(r, reports, T0.plusSeconds(110));
    assertThat(late.rollout().members().get("c0").step()).isEqualTo(Step.Failed);
  }

  /**
   * A rollout of {@code c0} (ran 1.0.0) and {@code fresh} (ran nothing; its approval before was
   * {@code prior}).
   */
  private Rollout withFreshCluster(String prior) {
    Rollout r = rollout(1, "{\"batchSize\":2}");
    Map<String, Member> members = new java.util.LinkedHashMap<>(r.members());
    members.put("fresh", new Member("fresh", 0, Step.Pending, null, null, null, null, prior));
    reports.put("fresh", Report.connected(null, null));
    return new Rollout(
        r.id(),
        r.subscription(),
        r.targetVersion(),
        r.strategy(),
        r.phase(),
        r.waves(),
        members,
        0,
        false,
        null);
  }

  @Test
  void aRollbackWithdrawsTheApprovalOfAClusterThatRanNothingBefore() {
    Rollout r = RolloutMachine.step(withFreshCluster(null), reports, T0).rollout();
    assertThat(r.members().get("fresh").approvedVersion()).isEqualTo("2.0.0");
    StepResult back = RolloutMachine.command(r, "rollback", "alice");
    Member fresh = back.rollout().members().get("fresh");
    assertThat(fresh.step()).isEqualTo(Step.RolledBack);
    assertThat(fresh.approvedVersion()).as("not left at the target").isNull();
    assertThat(fresh.message()).contains("approval withdrawn");
    assertThat(back.rollout().members().get("c0").approvedVersion()).isEqualTo("1.0.0");
  }

  @Test
  void aRollbackReturnsAClusterThatRanNothingToTheApprovalItHadBefore() {
    Rollout r = RolloutMachine.step(withFreshCluster("1.5.0"), reports, T0).rollout();
    Member fresh = RolloutMachine.command(r, "rollback", "alice").rollout().members().get("fresh");
    assertThat(fresh.step()).isEqualTo(Step.RolledBack);
    assertThat(fresh.approvedVersion()).isEqualTo("1.5.0");
  }

  @Test
  void aSoakingWaveWaitsForAClusterThatJoinedIt() {
    Rollout r = rollout(2, "{\"batchSize\":2,\"soakSeconds\":10}");
    r = RolloutMachine.step(r, reports, T0).rollout();
    upgraded("c0", "c1");
    r = RolloutMachine.step(r, reports, T0.plusSeconds(1)).rollout();
    assertThat(r.waves().get(0).state()).isEqualTo(WaveState.Soaking);
    Map<String, Member> members = new java.util.LinkedHashMap<>(r.members());
    members.put("late", new Member("late", 0, Step.Pending, "1.0.0", null, null, null, "1.0.0"));
    reports.put("late", Report.connected("1.0.0", "Succeeded"));
    r =
        new Rollout(
            r.id(),
            r.subscription(),
            r.targetVersion(),
            r.strategy(),
            r.phase(),
            r.waves(),
            members,
            0,
            false,
            null);
    // closed for the joiner only: the soak time passes, the wave does not succeed without it
    CalendarGate closed =
        CalendarGate.of(
            new MaintenanceCalendar(
                List.of(),
                List.of(Freeze.of("f", T0.minusSeconds(60), T0.plusSeconds(3600), "late=yes"))),
            Map.of("late", Map.of("late", "yes"), "c0", Map.of(), "c1", Map.of()),
            T0.plusSeconds(20));
    StepResult held = RolloutMachine.step(r, reports, T0.plusSeconds(20), closed);
    assertThat(held.rollout().members().get("late").step()).isEqualTo(Step.Pending);
    assertThat(held.rollout().phase()).isEqualTo(Phase.Progressing);
    StepResult open = RolloutMachine.step(held.rollout(), reports, T0.plusSeconds(21));
    assertThat(open.rollout().members().get("late").step()).isEqualTo(Step.Progressing);
    upgraded("late");
    StepResult done = RolloutMachine.step(open.rollout(), reports, T0.plusSeconds(22));
    assertThat(done.rollout().phase()).isEqualTo(Phase.Succeeded);
  }

  @Test
  void aPromoteNamingAWaveThatIsNotWaitingIsRefused() {
    Rollout r = RolloutMachine.step(rollout(4, "{\"batchSize\":2}"), reports, T0).rollout();
    String waiting = RolloutMachine.waitingWave(r).orElseThrow().name();
    assertThat(RolloutMachine.promote(r, waiting, "alice").rollout().promoteRequested()).isTrue();
    assertThat(RolloutMachine.promote(r, null, "alice").rollout().promoteRequested()).isTrue();
    assertThatThrownBy(() -> RolloutMachine.promote(r, "no-such-wave", "alice"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the waiting wave is " + waiting);
  }
}
