package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.rollout.WavePlanner.PlanCluster;
import io.olmstead.controlplane.rollout.WavePlanner.PlannedWave;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code strategy.groupBy}: one wave (or several, with a batch size) per value of a label. */
class RolloutGroupsTest {
  private static final List<PlanCluster> FLEET =
      List.of(
          new PlanCluster("a", Map.of("region", "us", "ring", "1")),
          new PlanCluster("b", Map.of("region", "eu", "ring", "0")),
          new PlanCluster("c", Map.of("region", "eu", "ring", "1")),
          new PlanCluster("d", Map.of("region", "ap", "ring", "0")),
          new PlanCluster("e", Map.of("region", "eu", "ring", "2")),
          new PlanCluster("f", Map.of("ring", "0")));

  private static List<PlannedWave> plan(String strategy) {
    return WavePlanner.plan(FLEET, RolloutStrategy.fromJson(new JsonObject(strategy)));
  }

  private static List<String> names(List<PlannedWave> waves) {
    return waves.stream().map(PlannedWave::name).toList();
  }

  @Test
  void oneWavePerValueInValueOrderClustersWithoutTheLabelLast() {
    List<PlannedWave> waves = plan("{\"groupBy\":\"region\"}");
    assertThat(names(waves)).containsExactly("region=ap", "region=eu", "region=us", "rest");
    assertThat(waves.get(1).clusters()).containsExactly("b", "c", "e");
    assertThat(waves).extracting(PlannedWave::group).containsExactly("ap", "eu", "us", null);
  }

  @Test
  void groupsFollowTheOrderKeysThenTheValueTheRestLast() {
    List<PlanCluster> fleet =
        List.of(
            new PlanCluster("x1", Map.of("region", "us", "ring", "0")),
            new PlanCluster("x2", Map.of("region", "eu", "ring", "1")),
            new PlanCluster("x3", Map.of("ring", "0")),
            new PlanCluster("x4", Map.of("region", "ap", "ring", "2")));
    assertThat(
            names(
                WavePlanner.plan(
                    fleet,
                    RolloutStrategy.fromJson(
                        new JsonObject("{\"groupBy\":\"region\",\"order\":[\"ring\"]}")))))
        .containsExactly("region=us", "region=eu", "region=ap", "rest");
    assertThat(
            names(
                WavePlanner.plan(
                    fleet, RolloutStrategy.fromJson(new JsonObject("{\"groupBy\":\"region\"}")))))
        .containsExactly("region=ap", "region=eu", "region=us", "rest");
  }

  @Test
  void batchSizeCutsInsideEachGroupNeverAcrossGroups() {
    List<PlannedWave> waves = plan("{\"groupBy\":\"region\",\"batchSize\":2}");
    assertThat(names(waves))
        .containsExactly("region=ap", "region=eu/1", "region=eu/2", "region=us", "rest");
    assertThat(waves.get(1).clusters()).containsExactly("b", "c");
    assertThat(waves.get(2).clusters()).containsExactly("e");
  }

  @Test
  void theCanaryIsTakenFromTheFirstGroup() {
    List<PlannedWave> waves =
        plan("{\"groupBy\":\"region\",\"order\":[\"ring\"],\"canary\":{\"count\":5}}");
    // the first group (ap) has one cluster: the canary takes it and no more, whatever the count
    assertThat(names(waves)).containsExactly("canary", "region=eu", "region=us", "rest");
    assertThat(waves.get(0).clusters()).containsExactly("d");
    List<PlannedWave> selected =
        plan("{\"groupBy\":\"region\",\"canary\":{\"selector\":\"ring=2\"}}");
    assertThat(selected.get(0).name()).isEqualTo("region=ap");
    List<PlannedWave> fromEu =
        WavePlanner.plan(
            FLEET.subList(1, 3),
            RolloutStrategy.fromJson(
                new JsonObject("{\"groupBy\":\"region\",\"canary\":{\"count\":1}}")));
    assertThat(names(fromEu)).containsExactly("canary", "region=eu");
  }

  @Test
  void ruleViolationsNameTheFieldAsAJsonPointer() {
    assertThatThrownBy(
            () -> RolloutStrategy.fromJson(new JsonObject("{\"batchSize\":2,\"batchPercent\":5}")))
        .isInstanceOfSatisfying(
            StrategyException.class,
            e -> assertThat(e.pointer()).isEqualTo("/strategy/batchPercent"));
    assertThatThrownBy(
            () ->
                RolloutStrategy.fromJson(
                    new JsonObject("{\"canary\":{\"count\":1,\"percent\":5}}")))
        .isInstanceOfSatisfying(
            StrategyException.class, e -> assertThat(e.pointer()).isEqualTo("/strategy/canary"));
    assertThatThrownBy(
            () ->
                RolloutStrategy.fromJson(new JsonObject("{\"canary\":{\"selector\":\"a in (\"}}")))
        .isInstanceOfSatisfying(
            StrategyException.class,
            e -> assertThat(e.pointer()).isEqualTo("/strategy/canary/selector"));
  }

  @Test
  void theStoredFormKeepsGroupByAndTheCalendarChoice() {
    RolloutStrategy s =
        RolloutStrategy.fromJson(
            new JsonObject(
                "{\"groupBy\":\"region\",\"onFailure\":\"fail\","
                    + "\"maintenanceWindows\":\"Ignore\"}"));
    RolloutStrategy again = RolloutStrategy.fromJson(s.toJson());
    assertThat(again).isEqualTo(s);
    assertThat(again.respectsCalendar()).isFalse();
    assertThat(s.toJson().getString("onFailure")).isEqualTo("fail");
    assertThat(RolloutStrategy.fromJson(new JsonObject()).respectsCalendar()).isTrue();
  }
}
