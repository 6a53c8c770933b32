package io.olmstead.agent.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.olmstead.apispec.protocol.Inventory;
import io.olmstead.apispec.protocol.SchemaDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The pure parts of the inventory: owner graph, KubePlus relationships, paging bounds, fitting a
 * report.
 */
class InventoryPiecesTest {

  @Test
  void podsAreFoundThroughChainsOfOwnersAndCountedOnce() {
    OwnerGraph g = new OwnerGraph();
    g.add(node("dep", "Deployment", List.of("cr"), null));
    g.add(node("rs", "ReplicaSet", List.of("dep"), null));
    g.add(node("p1", "Pod", List.of("rs"), pod("p1", 100)));
    g.add(node("p2", "Pod", List.of("rs", "dep"), pod("p2", 200)));
    g.add(node("p3", "Pod", List.of("someone-else"), pod("p3", 400)));
    assertThat(g.podsOwnedBy(List.of("cr")))
        .extracting(OwnerGraph.PodFacts::name)
        .containsExactlyInAnyOrder("p1", "p2");
    Inventory.Pods sum = OwnerGraph.sum(g.podsOwnedBy(List.of("cr", "dep")), null);
    assertThat(sum.count()).isEqualTo(2);
    assertThat(sum.requests().cpuMillis()).isEqualTo(300);
    assertThat(sum.usage()).isNull();
  }

  @Test
  void ownerChainsLongerThanTheBoundAreNotFollowed() {
    OwnerGraph g = new OwnerGraph();
    String owner = "root";
    for (int i = 0; i < OwnerGraph.MAX_DEPTH + 2; i++) {
      g.add(node("n" + i, "Deployment", List.of(owner), null));
      owner = "n" + i;
    }
    g.add(node("deep", "Pod", List.of(owner), pod("deep", 1)));
    g.add(node("shallow", "Pod", List.of("n0"), pod("shallow", 1)));
    assertThat(g.podsOwnedBy(List.of("root")))
        .extracting(OwnerGraph.PodFacts::name)
        .containsExactly("shallow");
  }

  @Test
  void relationshipsTieObjectsOfTheNamedKindsByLabelOrAnnotation() {
    Relationship byLabel =
        Relationship.parse("on:Pod;Deployment, key:app, value:INSTANCE.metadata.name", true)
            .orElseThrow();
    assertThat(byLabel.kinds()).containsExactlyInAnyOrder("Pod", "Deployment");
    assertThat(Relationship.parse("on:Pod, key:app, value:spec.other", true)).isEmpty();
    assertThat(Relationship.parse("key:app, value:INSTANCE.metadata.name", true)).isEmpty();
    assertThat(
            Relationship.of(
                Map.of(Relationship.ANNOTATION, "on:Pod, key:a, value:INSTANCE.metadata.name")))
        .containsExactly(new Relationship(false, Set.of("Pod"), "a"));
    OwnerGraph g = new OwnerGraph();
    g.add(
        new OwnerGraph.Node(
            "p1", "Pod", "p1", List.of(), Map.of("app", "main"), Map.of(), pod("p1", 1)));
    g.add(
        new OwnerGraph.Node(
            "s1", "Service", "s1", List.of(), Map.of("app", "main"), Map.of(), null));
    g.add(
        new OwnerGraph.Node(
            "p2", "Pod", "p2", List.of(), Map.of("app", "other"), Map.of(), pod("p2", 1)));
    assertThat(g.related(byLabel, "main")).containsExactly("p1");
  }

  @Test
  void pagingFollowsContinueTokensAndStopsAtTheCap() {
    List<String> asked = new ArrayList<>();
    Function<ListOptions, PodList> pages =
        o -> {
          asked.add(o.getContinue());
          int start = o.getContinue() == null ? 0 : Integer.parseInt(o.getContinue());
          List<Pod> items =
              IntStream.range(start, Math.min(start + o.getLimit().intValue(), 25))
                  .mapToObj(
                      i ->
                          new PodBuilder()
                              .withNewMetadata()
                              .withName("p" + i)
                              .endMetadata()
                              .build())
                  .toList();
          String next = start + items.size() < 25 ? Integer.toString(start + items.size()) : null;
          return new PodListBuilder()
              .withItems(items)
              .withMetadata(new ListMeta(next, null, null, null, null))
              .build();
        };
    assertThat(Pager.each(pages, 10, 1000, false, p -> {}))
        .isEqualTo(new Pager.Result(25, 25, false));
    assertThat(asked).containsExactly(null, "10", "20");
    assertThat(Pager.each(pages, 10, 15, false, p -> {})).isEqualTo(new Pager.Result(15, 15, true));
  }

  @Test
  void countingTrustsTheServersRemainingItemCountAfterOnePage() {
    List<String> asked = new ArrayList<>();
    Function<ListOptions, PodList> pages =
        o -> {
          asked.add(o.getContinue());
          return new PodListBuilder()
              .withItems(new PodBuilder().withNewMetadata().withName("p").endMetadata().build())
              .withMetadata(new ListMeta("next", 41_999L, null, null, null))
              .build();
        };
    assertThat(Pager.each(pages, 1, 100, true, p -> {}))
        .isEqualTo(new Pager.Result(1, 42_000, false));
    assertThat(asked).hasSize(1);
  }

  @Test
  void anOversizedReportLosesStacksFirstAndSaysItWasTruncated() {
    List<Inventory.Stack> stacks =
        IntStream.range(0, Inventory.MAX_STACKS)
            .mapToObj(
                i ->
                    new Inventory.Stack(
                        "DbCluster",
                        "ns",
                        "stack-" + "x".repeat(200) + i,
                        new Inventory.Pods(1, 0, new Inventory.Resources(1, 1), null, null)))
            .toList();
    List<Inventory.Operator> ops =
        IntStream.range(0, 20)
            .mapToObj(
                i ->
                    new Inventory.Operator(
                        "op-" + i,
                        "ns",
                        "pkg",
                        null,
                        null,
                        "Succeeded",
                        null,
                        null,
                        List.of(),
                        null,
                        stacks))
            .toList();
    Inventory big = new Inventory(1, null, null, ops, null);
    assertThat(InventoryFit.size(big)).isGreaterThan(InventoryBounds.REPORT_BYTES);
    Inventory fitted = InventoryFit.fit(big);
    assertThat(InventoryFit.size(fitted)).isLessThanOrEqualTo(InventoryBounds.REPORT_BYTES);
    assertThat(fitted.truncated()).isTrue();
    assertThat(fitted.operators()).hasSize(20);
    assertThat(SchemaDecoder.violation(fitted)).isNull();
    Inventory small = new Inventory(1, null, null, ops.subList(0, 1), null);
    assertThat(InventoryFit.fit(small)).isSameAs(small);
  }

  @Test
  void textsAndPhasesAreCutToTheProtocol() {
    assertThat(InventoryFit.text("a\u0000b", 10)).isEqualTo("a\uFFFDb");
    assertThat(InventoryFit.text("abcdef", 3)).isEqualTo("abc");
    assertThat(InventoryFit.phase("Exploded")).isEqualTo("Unknown");
    assertThat(InventoryFit.phase("")).isEqualTo("Pending");
  }

  private static OwnerGraph.Node node(
      String uid, String kind, List<String> owners, OwnerGraph.PodFacts pod) {
    return new OwnerGraph.Node(uid, kind, uid, owners, Map.of(), Map.of(), pod);
  }

  private static OwnerGraph.PodFacts pod(String name, long cpu) {
    return new OwnerGraph.PodFacts(name, cpu, 0, 0, 0, 0);
  }
}
