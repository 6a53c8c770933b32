package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.preflight.PreflightStore.Verdict;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.Step;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutModel.Transition;
import io.olmstead.controlplane.rollout.RolloutModel.WaveState;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The preflight decision on pending clusters (pure) and how a rollout step applies it. */
class PreflightGateTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final JsonArray INVALID_CR =
      new JsonArray()
          .add(
              new JsonObject()
                  .put("code", "ExistingResourceInvalid")
                  .put("severity", "Error")
                  .put("subject", "demos.demo.olmstead.io")
                  .put("message", "error validating existing CRs against new CRD's schema"));
  private final Map<String, Report> reports = new HashMap<>();

  private static PreflightView view(String mode, Map<String, Verdict> verdicts) {
    return new PreflightView(new PreflightPolicy(PreflightPolicy.Mode.valueOf(mode), 30), verdicts);
  }

  private static Verdict answered(String verdict, JsonArray findings) {
    return new Verdict(T0, T0.plusSeconds(1), verdict, findings);
  }

  private static Verdict unanswered() {
    return new Verdict(T0, null, null, null);
  }

  @Test
  void aFailingClusterIsHeldInBlockModeAndApprovedWithItsFindingsInWarnMode() {
    PreflightView.Decision block =
        view("Block", Map.of("c", answered("Fail", INVALID_CR))).decide("c", true, null, T0);
    assertThat(block.kind()).isEqualTo(PreflightView.Kind.HOLD);
    assertThat(block.note())
        .startsWith("PreflightFailed: ExistingResourceInvalid (demos.demo.olmstead.io)");
    PreflightView.Decision warn =
        view("Warn", Map.of("c", answered("Fail", INVALID_CR))).decide("c", true, null, T0);
    assertThat(warn.kind()).isEqualTo(PreflightView.Kind.APPROVE);
    assertThat(warn.note()).contains("ExistingResourceInvalid");
  }

  @Test
  void passingAndWarningClustersAreApprovedAndOffApprovesWithoutAsking() {
    assertThat(
            view("Block", Map.of("c", answered("Pass", new JsonArray())))
                .decide("c", true, null, T0)
                .kind())
        .isEqualTo(PreflightView.Kind.APPROVE);
    PreflightView.Decision warned =
        view("Block", Map.of("c", answered("Warn", INVALID_CR))).decide("c", true, null, T0);
    assertThat(warned.kind()).isEqualTo(PreflightView.Kind.APPROVE);
    assertThat(warned.note()).startsWith("preflight warnings: ");
    assertThat(PreflightView.OFF.decide("c", true, null, T0).kind())
        .isEqualTo(PreflightView.Kind.APPROVE);
  }

  @Test
  void anUnansweredRequestWaitsThenHoldsAsUnavailableInBlockAndWarnModeAlike() {
    for (String mode : List.of("Block", "Warn")) {
      PreflightView v = view(mode, Map.of("c", unanswered()));
      assertThat(v.decide("c", true, null, T0.plusSeconds(29)).kind())
          .isEqualTo(PreflightView.Kind.WAIT);
      PreflightView.Decision late = v.decide("c", true, null, T0.plusSeconds(30));
      assertThat(late.kind()).as(mode).isEqualTo(PreflightView.Kind.HOLD);
      assertThat(late.note()).startsWith("PreflightUnavailable");
    }
    // not asked yet (the gate asks during this step): wait
    assertThat(view("Block", Map.of()).decide("c", true, null, T0.plusSeconds(999)).kind())
        .isEqualTo(PreflightView.Kind.WAIT);
  }

  @Test
  void anOfflineClusterWaitsAndItsTimeoutRunsFromItsReturn() {
    PreflightView v = view("Block", Map.of("c", unanswered()));
    assertThat(v.decide("c", false, null, T0.plusSeconds(600)).kind())
        .isEqualTo(PreflightView.Kind.WAIT);
    Instant back = T0.plusSeconds(600);
    assertThat(v.decide("c", true, back, back.plusSeconds(10)).kind())
        .isEqualTo(PreflightView.Kind.WAIT);
    assertThat(v.decide("c", true, back, back.plusSeconds(30)).kind())
        .isEqualTo(PreflightView.Kind.HOLD);
  }

  private Rollout rollout(int clusters, String strategy) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    for (int i = 0; i < clusters; i++) {
      fleet.add(new WavePlanner.PlanCluster("c" + i, Map.of()));
      versions.put("c" + i, "1.0.0");
      reports.put("c" + i, Report.connected("1.0.0", "Succeeded"));
    }
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject(strategy));
    return RolloutMachine.initial("r1", "sub", "2.0.0", s, WavePlanner.plan(fleet, s), versions);
  }

  @Test
  void aStepApprovesPassingClustersHoldsFailingOnesAndLeavesUnansweredOnesPending() {
    Rollout r = rollout(3, "{}");
    PreflightView v =
        view(
            "Block",
            Map.of(
                "c0",
                answered("Pass", new JsonArray()),
                "c1",
                answered("Fail", INVALID_CR),
                "c2",
                unanswered()));
    StepResult s = RolloutMachine.step(r, reports, v, T0.plusSeconds(5));
    Map<String, Member> m = s.rollout().members();
    assertThat(m.get("c0").step()).isEqualTo(Step.Progressing);
    assertThat(m.get("c0").approvedVersion()).isEqualTo("2.0.0");
    assertThat(m.get("c1").step()).isEqualTo(Step.Blocked);
    assertThat(m.get("c1").approvedVersion()).isNull();
    assertThat(m.get("c1").message()).startsWith("PreflightFailed: ExistingResourceInvalid");
    assertThat(m.get("c2").step()).isEqualTo(Step.Pending);
    assertThat(s.transitions())
        .extracting(Transition::kind)
        .containsExactly("WaveOpened", "ClusterApproved", "ClusterHeld");
    // the held cluster is settled: once the others are done the wave completes without it
    reports.put("c0", Report.connected("2.0.0", "Succeeded"));
    PreflightView later =
        view(
            "Block",
            Map.of(
                "c0",
                answered("Pass", new JsonArray()),
                "c1",
                answered("Fail", INVALID_CR),
                "c2",
                answered("Pass", new JsonArray())));
    StepResult next = RolloutMachine.step(s.rollout(), reports, later, T0.plusSeconds(6));
    reports.put("c2", Report.connected("2.0.0", "Succeeded"));
    StepResult done = RolloutMachine.step(next.rollout(), reports, later, T0.plusSeconds(7));
    assertThat(done.rollout().waves().get(0).state()).isNotEqualTo(WaveState.Open);
    assertThat(done.rollout().members().get("c1").step()).isEqualTo(Step.Blocked);
  }

  @Test
  void theStrategyDefaultsToBlockAndRefusesUnknownModesNamingTheField() {
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject());
    assertThat(s.preflight().mode()).isEqualTo(PreflightPolicy.Mode.Block);
    assertThat(s.toJson().getString("preflight")).isEqualTo("Block");
    assertThat(RolloutStrategy.fromJson(s.toJson())).isEqualTo(s);
    assertThatThrownBy(() -> RolloutStrategy.fromJson(new JsonObject().put("preflight", "Maybe")))
        .hasMessageContaining("preflight");
    assertThatThrownBy(
            () -> RolloutStrategy.fromJson(new JsonObject().put("preflightTimeoutSeconds", 0)))
        .hasMessageContaining("preflightTimeoutSeconds");
  }
}
