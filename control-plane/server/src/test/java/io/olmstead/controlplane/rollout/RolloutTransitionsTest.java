package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.rollout.RolloutModel.Report;
import io.olmstead.controlplane.rollout.RolloutModel.Rollout;
import io.olmstead.controlplane.rollout.RolloutModel.StepResult;
import io.olmstead.controlplane.rollout.RolloutTransitions.Line;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RolloutTransitionsTest {
  private static Rollout rollout() {
    RolloutStrategy s = RolloutStrategy.fromJson(new JsonObject("{\"batchSize\":1}"));
    List<WavePlanner.PlanCluster> fleet = List.of(new WavePlanner.PlanCluster("c0", Map.of()));
    return RolloutMachine.initial(
        "ro-1", "web", "2.0.0", s, WavePlanner.plan(fleet, s), Map.of("c0", "1.0.0"));
  }

  @Test
  void aCommandIsOneInfoLineNamingRolloutSubscriptionStatesAndReason() {
    Rollout before = rollout();
    StepResult paused = RolloutMachine.command(before, "pause", "token:ops");
    assertThat(RolloutTransitions.lines(before, paused))
        .containsExactly(
            new Line(
                true,
                "rollout ro-1 subscription web: Progressing -> Paused (Paused: paused by token:ops)"));
  }

  @Test
  void wavesAreInfoAndClusterStepsDebug() {
    Rollout before = rollout();
    StepResult step =
        RolloutMachine.step(
            before,
            Map.of("c0", Report.connected("1.0.0", "Succeeded")),
            Instant.parse("2026-01-01T00:00:00Z"));
    List<Line> lines = RolloutTransitions.lines(before, step);
    assertThat(lines).hasSize(step.transitions().size()).isNotEmpty();
    assertThat(lines)
        .filteredOn(Line::info)
        .isNotEmpty()
        .allSatisfy(
            l ->
                assertThat(l.text())
                    .startsWith("rollout ro-1 subscription web wave ")
                    .contains(" -> "));
    assertThat(lines)
        .filteredOn(l -> !l.info())
        .allSatisfy(
            l ->
                assertThat(l.text())
                    .startsWith(
                        "rollout ro-1 subscription web cluster c0: Pending -> Progressing (ClusterApproved"));
  }
}
