package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.rollout.WavePlanner.PlanCluster;
import io.olmstead.controlplane.rollout.WavePlanner.PlannedWave;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code strategy.groupOrder}: the groups of {@code groupBy} in the order the user lists their
 * values.
 */
class RolloutGroupOrderTest {
  private static final List<PlanCluster> FLEET =
      List.of(
          new PlanCluster("a", Map.of("region", "us-east", "ring", "1")),
          new PlanCluster("b", Map.of("region", "eu-west", "ring", "0")),
          new PlanCluster("c", Map.of("region", "ap-south", "ring", "0")),
          new PlanCluster("d", Map.of("region", "af-north", "ring", "2")),
          new PlanCluster("e", Map.of("region", "eu-west", "ring", "2")),
          new PlanCluster("f", Map.of("ring", "0")));

  static Stream<Arguments> orders() {
    return Stream.of(
        Arguments.of(
            "no groupOrder: value order",
            "{\"groupBy\":\"region\"}",
            List.of(
                "region=af-north", "region=ap-south", "region=eu-west", "region=us-east", "rest")),
        Arguments.of(
            "every value listed",
            "{\"groupBy\":\"region\",\"groupOrder\":[\"us-east\",\"eu-west\","
                + "\"ap-south\",\"af-north\"]}",
            List.of(
                "region=us-east", "region=eu-west", "region=ap-south", "region=af-north", "rest")),
        Arguments.of(
            "unlisted values after, in value order",
            "{\"groupBy\":\"region\",\"groupOrder\":" + "[\"us-east\",\"eu-west\"]}",
            List.of(
                "region=us-east", "region=eu-west", "region=af-north", "region=ap-south", "rest")),
        Arguments.of(
            "groupOrder wins over the order keys",
            "{\"groupBy\":\"region\",\"order\":[\"ring\"]," + "\"groupOrder\":[\"us-east\"]}",
            List.of(
                "region=us-east", "region=af-north", "region=ap-south", "region=eu-west", "rest")),
        Arguments.of(
            "batches cut inside each group in the listed order",
            "{\"groupBy\":\"region\",\"batchSize\":1,"
                + "\"groupOrder\":[\"eu-west\",\"us-east\"]}",
            List.of(
                "region=eu-west/1",
                "region=eu-west/2",
                "region=us-east",
                "region=af-north",
                "region=ap-south",
                "rest")),
        Arguments.of(
            "the canary comes from the first listed group",
            "{\"groupBy\":\"region\",\"canary\":" + "{\"count\":1},\"groupOrder\":[\"eu-west\"]}",
            List.of(
                "canary",
                "region=eu-west",
                "region=af-north",
                "region=ap-south",
                "region=us-east",
                "rest")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orders")
  void wavesFollowTheListedValues(String what, String strategy, List<String> waves) {
    List<PlannedWave> plan =
        WavePlanner.plan(FLEET, RolloutStrategy.fromJson(new JsonObject(strategy)));
    assertThat(plan.stream().map(PlannedWave::name).toList()).isEqualTo(waves);
  }

  @Test
  void theCanaryOfTheFirstListedGroupIsItsFirstCluster() {
    List<PlannedWave> plan =
        WavePlanner.plan(
            FLEET,
            RolloutStrategy.fromJson(
                new JsonObject(
                    "{\"groupBy\":\"region\",\"canary\":{\"count\":1},\"groupOrder\":[\"eu-west\"]}")));
    assertThat(plan.get(0).clusters()).containsExactly("b");
    assertThat(plan.get(1).clusters()).containsExactly("e");
  }

  @Test
  void listedValuesNoClusterHasAreNamed() {
    RolloutStrategy s =
        RolloutStrategy.fromJson(
            new JsonObject(
                "{\"groupBy\":\"region\",\"groupOrder\":"
                    + "[\"us-east\",\"mars-1\",\"eu-west\",\"moon-2\"]}"));
    assertThat(WavePlanner.missingGroups(FLEET, s)).containsExactly("mars-1", "moon-2");
    assertThat(
            WavePlanner.missingGroups(
                FLEET,
                RolloutStrategy.fromJson(
                    new JsonObject("{\"groupBy\":\"region\",\"groupOrder\":[\"us-east\"]}"))))
        .isEmpty();
    assertThat(WavePlanner.missingGroups(FLEET, RolloutStrategy.fromJson(new JsonObject("{}"))))
        .isEmpty();
  }

  @Test
  void groupOrderNeedsGroupByDistinctValidValues() {
    assertThatThrownBy(
            () -> RolloutStrategy.fromJson(new JsonObject("{\"groupOrder\":[\"us-east\"]}")))
        .isInstanceOfSatisfying(
            StrategyException.class,
            e -> assertThat(e.pointer()).isEqualTo("/strategy/groupOrder"));
    assertThatThrownBy(
            () ->
                RolloutStrategy.fromJson(
                    new JsonObject(
                        "{\"groupBy\":\"region\",\"groupOrder\":" + "[\"us-east\",\"us-east\"]}")))
        .isInstanceOfSatisfying(
            StrategyException.class,
            e -> assertThat(e.pointer()).isEqualTo("/strategy/groupOrder/1"));
    assertThatThrownBy(
            () ->
                RolloutStrategy.fromJson(
                    new JsonObject(
                        "{\"groupBy\":\"region\",\"groupOrder\":"
                            + "[\"us-east\",\"not a value!\"]}")))
        .isInstanceOfSatisfying(
            StrategyException.class,
            e -> assertThat(e.pointer()).isEqualTo("/strategy/groupOrder/1"));
  }

  @Test
  void theStoredFormKeepsTheGroupOrder() {
    RolloutStrategy s =
        RolloutStrategy.fromJson(
            new JsonObject(
                "{\"groupBy\":\"region\",\"groupOrder\":" + "[\"us-east\",\"eu-west\"]}"));
    assertThat(RolloutStrategy.fromJson(s.toJson())).isEqualTo(s);
    assertThat(s.toJson().getJsonArray("groupOrder").getList())
        .containsExactly("us-east", "eu-west");
  }
}
