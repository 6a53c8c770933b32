package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.rollout.WavePlanner.PlanCluster;
import io.olmstead.controlplane.rollout.WavePlanner.PlannedWave;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WavePlannerTest {

  private static List<PlanCluster> fleet(int n) {
    List<PlanCluster> out = new ArrayList<>();
    IntStream.range(0, n)
        .forEach(
            i ->
                out.add(
                    new PlanCluster(
                        String.format("c%03d", i), Map.of("region", i % 2 == 0 ? "eu" : "us"))));
    return out;
  }

  private static RolloutStrategy strategy(String json) {
    return RolloutStrategy.fromJson(new JsonObject(json));
  }

  private static List<Integer> sizes(List<PlannedWave> waves) {
    return waves.stream().map(w -> w.clusters().size()).toList();
  }

  @Test
  void canaryCountThenFixedBatchesCoverEveryClusterOnce() {
    List<PlannedWave> waves =
        WavePlanner.plan(fleet(100), strategy("{\"canary\":{\"count\":5},\"batchSize\":30}"));
    assertThat(sizes(waves)).containsExactly(5, 30, 30, 30, 5);
    assertThat(waves.get(0).name()).isEqualTo("canary");
    assertThat(waves.get(1).name()).isEqualTo("batch-1");
    assertThat(waves.stream().flatMap(w -> w.clusters().stream()).distinct().count())
        .isEqualTo(100);
  }

  @Test
  void percentagesRoundUpAndNeverGiveEmptyWaves() {
    List<PlannedWave> waves =
        WavePlanner.plan(fleet(7), strategy("{\"canary\":{\"percent\":10},\"batchPercent\":50}"));
    assertThat(sizes(waves)).containsExactly(1, 4, 2);
  }

  @Test
  void canarySelectorTakesTheMatchingClusters() {
    List<PlannedWave> waves =
        WavePlanner.plan(fleet(6), strategy("{\"canary\":{\"selector\":\"region=us\"}}"));
    assertThat(waves.get(0).clusters()).containsExactly("c001", "c003", "c005");
    assertThat(waves.get(1).clusters()).containsExactly("c000", "c002", "c004");
  }

  @Test
  void canarySelectorMatchingNothingGivesNoCanaryWave() {
    List<PlannedWave> waves =
        WavePlanner.plan(fleet(3), strategy("{\"canary\":{\"selector\":\"region=mars\"}}"));
    assertThat(waves).extracting(PlannedWave::name).containsExactly("batch-1");
  }

  @Test
  void orderByLabelKeysPutsClustersWithoutTheKeyLast() {
    List<PlanCluster> clusters =
        List.of(
            new PlanCluster("a", Map.of("ring", "2")),
            new PlanCluster("b", Map.of()),
            new PlanCluster("c", Map.of("ring", "0")),
            new PlanCluster("d", Map.of("ring", "1")));
    List<PlannedWave> waves =
        WavePlanner.plan(clusters, strategy("{\"batchSize\":1,\"order\":[\"ring\"]}"));
    assertThat(waves).extracting(w -> w.clusters().get(0)).containsExactly("c", "d", "a", "b");
  }

  @Test
  void canaryLargerThanTheFleetTakesItAll() {
    assertThat(
            sizes(
                WavePlanner.plan(
                    fleet(3), strategy("{\"canary\":{\"count\":10},\"batchSize\":2}"))))
        .containsExactly(3);
  }

  @Test
  void noClustersNoWaves() {
    assertThat(WavePlanner.plan(List.of(), strategy("{}"))).isEmpty();
  }

  @Test
  void budgetsAsCountOrPercent() {
    assertThat(strategy("{}").maxFailures().allowed(100)).isZero();
    assertThat(strategy("{\"maxFailures\":3}").maxFailures().allowed(100)).isEqualTo(3);
    assertThat(strategy("{\"maxFailures\":\"5%\"}").maxFailures().allowed(100)).isEqualTo(5);
    assertThat(strategy("{\"maxFailures\":\"5%\"}").maxFailures().allowed(10)).isZero();
  }

  @Test
  void strategyRoundTripsThroughJson() {
    RolloutStrategy s =
        strategy(
            "{\"canary\":{\"percent\":5},\"batchPercent\":20,\"maxUnavailable\":3,"
                + "\"maxFailures\":\"10%\",\"soakSeconds\":7,\"progressDeadlineSeconds\":30,\"onFailure\":\"rollback\","
                + "\"order\":[\"region\"]}");
    assertThat(RolloutStrategy.fromJson(s.toJson())).isEqualTo(s);
  }

  @Test
  void badStrategiesAreRefusedNamingTheField() {
    assertThatThrownBy(() -> strategy("{\"canary\":{\"count\":1,\"percent\":5}}"))
        .hasMessageContaining("canary");
    assertThatThrownBy(() -> strategy("{\"batchSize\":2,\"batchPercent\":5}"))
        .hasMessageContaining("batchSize");
    assertThatThrownBy(() -> strategy("{\"batchPercent\":0}")).hasMessageContaining("batchPercent");
    assertThatThrownBy(() -> strategy("{\"maxFailures\":\"lots\"}"))
        .hasMessageContaining("maxFailures");
    assertThatThrownBy(() -> strategy("{\"onFailure\":\"panic\"}"))
        .hasMessageContaining("onFailure");
    assertThatThrownBy(() -> strategy("{\"canary\":{\"selector\":\"a in (\"}}"))
        .hasMessageContaining("selector");
    assertThatThrownBy(() -> strategy("{\"order\":[\"bad key!\"]}")).hasMessageContaining("order");
  }
}
