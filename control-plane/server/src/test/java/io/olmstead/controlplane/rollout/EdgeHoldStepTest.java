package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.edgerisk.EdgeHolds;
import io.olmstead.controlplane.rollout.RolloutModel.Member;
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

/**
 * The step with edge holds: a held cluster stays Pending with the hold's reason, its wave waits, a
 * release moves it.
 */
class EdgeHoldStepTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String HOLD =
      "EdgeAtRisk (risk 0123456789abcdef: sub 1.0.0 -> 2.0.0 failed on 1 cluster and "
          + "succeeded on 0 with matching facts fips=true; accept with POST /api/v1/edge-risks/0123456789abcdef/accept)";
  private final Map<String, Report> reports = new HashMap<>();

  @Test
  void aHeldClusterWaitsWithTheReasonUntilReleased() {
    Rollout r = rollout(3);
    Map<String, EdgeHolds.Hold> holds = Map.of("c1", new EdgeHolds.Hold("0123456789abcdef", HOLD));
    StepResult first = step(r, holds, T0);
    assertThat(approved(first.rollout())).containsExactly("c0", "c2");
    Member held = first.rollout().members().get("c1");
    assertThat(held.step()).isEqualTo(Step.Pending);
    assertThat(held.message()).isEqualTo(HOLD);
    assertThat(first.transitions()).contains(new Transition("ClusterHeld", "batch-1", "c1", HOLD));
    assertThat(ClusterReason.held(held).code()).isEqualTo("EdgeAtRisk");
    assertThat(ClusterReason.held(held).subject()).isEqualTo("0123456789abcdef");

    upgraded("c0", "c2");
    StepResult waiting = step(first.rollout(), holds, T0.plusSeconds(600));
    assertThat(waiting.rollout().waves().get(0).state())
        .as("held, the wave cannot soak")
        .isEqualTo(WaveState.Open);
    assertThat(step(waiting.rollout(), holds, T0.plusSeconds(601)).transitions())
        .as("held again: nothing new")
        .isEmpty();

    StepResult released = step(waiting.rollout(), EdgeHolds.NONE, T0.plusSeconds(602));
    assertThat(approved(released.rollout())).contains("c1");
    assertThat(released.transitions().stream().map(Transition::kind))
        .containsSubsequence("ClusterReleased", "ClusterApproved");
    assertThat(ClusterReason.held(released.rollout().members().get("c1"))).isNull();
  }

  private StepResult step(Rollout r, Map<String, EdgeHolds.Hold> holds, Instant now) {
    return RolloutMachine.step(
        r, reports, now, CalendarGate.alwaysOpen(now), PreflightView.OFF, AnalysisView.NONE, holds);
  }

  private Rollout rollout(int clusters) {
    List<WavePlanner.PlanCluster> fleet = new ArrayList<>();
    Map<String, String> versions = new HashMap<>();
    for (int i = 0; i < clusters; i++) {
      fleet.add(new WavePlanner.PlanCluster("c" + i, Map.of()));
      versions.put("c" + i, "1.0.0");
      reports.put("c" + i, Report.connected("1.0.0", "Succeeded"));
    }
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject("{\"batchSize\":3}"));
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
}
