package io.olmstead.controlplane.hypershift.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PoolAssignmentTest {
  private static final List<String> CLUSTERS =
      IntStream.range(0, 1000).mapToObj(i -> "clusters-hc-" + i).toList();

  @Test
  void noLiveReplicaAssignsNothing() {
    assertThat(PoolAssignment.assign(CLUSTERS, List.of())).isEmpty();
  }

  @Test
  void everyClusterGoesToExactlyOneLiveReplicaWhateverOrderTheyAreListedIn() {
    Map<String, String> a = PoolAssignment.assign(CLUSTERS, List.of("pool-0", "pool-1", "pool-2"));
    List<String> reversed = new ArrayList<>(CLUSTERS);
    java.util.Collections.reverse(reversed);
    Map<String, String> b = PoolAssignment.assign(reversed, List.of("pool-2", "pool-0", "pool-1"));
    assertThat(a).hasSize(1000).isEqualTo(b);
    assertThat(a.values()).containsOnly("pool-0", "pool-1", "pool-2");
  }

  @ParameterizedTest(name = "{0} replicas share 1000 clusters within {1}% of an even share")
  @CsvSource({"2, 15", "3, 20", "5, 25"})
  void spreadsClustersEvenly(int replicas, int tolerancePercent) {
    List<String> names = IntStream.range(0, replicas).mapToObj(i -> "pool-" + i).toList();
    Map<String, Integer> counts = PoolAssignment.counts(PoolAssignment.assign(CLUSTERS, names));
    int even = 1000 / replicas;
    assertThat(counts).hasSize(replicas);
    counts
        .values()
        .forEach(
            n ->
                assertThat(n)
                    .isBetween(
                        even * (100 - tolerancePercent) / 100,
                        even * (100 + tolerancePercent) / 100));
  }

  @Test
  void aReplicaLeavingMovesOnlyItsOwnClusters() {
    Map<String, String> before =
        PoolAssignment.assign(CLUSTERS, List.of("pool-0", "pool-1", "pool-2"));
    Map<String, String> after = PoolAssignment.assign(CLUSTERS, List.of("pool-0", "pool-2"));
    before.forEach(
        (cluster, owner) -> {
          if (!owner.equals("pool-1")) {
            assertThat(after.get(cluster)).as(cluster).isEqualTo(owner);
          } else {
            assertThat(after.get(cluster)).as(cluster).isIn("pool-0", "pool-2");
          }
        });
  }

  @Test
  void aReplicaJoiningTakesOnlyClustersFromOthersAndAboutItsShare() {
    Map<String, String> before = PoolAssignment.assign(CLUSTERS, List.of("pool-0", "pool-1"));
    Map<String, String> after =
        PoolAssignment.assign(CLUSTERS, List.of("pool-0", "pool-1", "pool-2"));
    List<String> moved = new ArrayList<>();
    before.forEach(
        (cluster, owner) -> {
          if (!after.get(cluster).equals(owner)) {
            assertThat(after.get(cluster)).isEqualTo("pool-2");
            moved.add(cluster);
          }
        });
    assertThat(moved.size()).isBetween(250, 420);
  }

  @Test
  void planHandsOverWhatIsOwnedButNotHeldOrLastHandedToAnotherAndReleasesTheRest() {
    Map<String, String> owners = Map.of("a", "pool-0", "b", "pool-0", "c", "pool-0", "d", "pool-1");
    // a: held and last handed here (kept); b: not held (new); c: held, but the store says pool-1
    // got it since
    // (our credential was rotated away); d: held but now pool-1's; e: held but no longer a hosted
    // cluster
    PoolAssignment.Plan plan =
        PoolAssignment.plan(
            "pool-0",
            owners,
            Set.of("a", "c", "d", "e"),
            Map.of("a", "pool-0", "c", "pool-1", "d", "pool-0"));
    assertThat(plan.handOver()).containsExactlyInAnyOrder("b", "c");
    assertThat(plan.release()).containsExactlyInAnyOrder("d", "e");
  }

  @Test
  void planIsEmptyWhenEverythingIsInPlace() {
    PoolAssignment.Plan plan =
        PoolAssignment.plan(
            "pool-0",
            Map.of("a", "pool-0", "b", "pool-1"),
            Set.of("a"),
            Map.of("a", "pool-0", "b", "pool-1"));
    assertThat(plan.isEmpty()).isTrue();
  }
}
