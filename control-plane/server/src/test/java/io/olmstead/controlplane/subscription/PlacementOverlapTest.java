package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.selector.LabelSelector;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When two subscriptions for one package and namespace could select a common cluster. */
class PlacementOverlapTest {

  private static SubscriptionSpec sub(
      String name, String selector, List<String> clusters, String team) {
    return new SubscriptionSpec(
        name,
        "cat",
        "etcd",
        null,
        "etcd",
        List.of(),
        new SubscriptionSpec.Placement(selector, clusters),
        new SubscriptionSpec.VersionPolicy(SubscriptionSpec.VersionPolicy.Kind.FOLLOW, "channel"),
        "Automatic",
        new JsonObject(),
        team,
        "Keep");
  }

  private static boolean disjoint(String a, String b) {
    return PlacementOverlap.disjoint(LabelSelector.parse(a), LabelSelector.parse(b));
  }

  @Test
  void selectorsAreDisjointOnlyWhenSomeKeyCannotSatisfyBoth() {
    assertThat(disjoint("env=prod", "env=dev")).isTrue();
    assertThat(disjoint("env in (a,b)", "env notin (a,b)")).isTrue();
    assertThat(disjoint("env in (a,b)", "env in (c)")).isTrue();
    assertThat(disjoint("gpu", "!gpu")).isTrue();
    assertThat(disjoint("env=prod,region=eu", "region=us")).isTrue();
    assertThat(disjoint("env=prod", "env!=prod")).isTrue();

    assertThat(disjoint("env=prod", "region=eu")).as("different keys").isFalse();
    assertThat(disjoint("env in (a,b)", "env in (b,c)")).isFalse();
    assertThat(disjoint("env!=prod", "!env")).as("absent satisfies both").isFalse();
    assertThat(disjoint("env notin (a)", "env notin (b)")).isFalse();
    assertThat(disjoint("", "env=prod")).as("the empty selector matches all").isFalse();
    assertThat(disjoint("size>3", "size<2")).as("numeric ranges are assumed to meet").isFalse();
  }

  @Test
  void overlapNeedsTheSamePackageAndNamespaceAndNoTwoDifferentTeams() {
    SubscriptionSpec a = sub("a", "env=prod", List.of(), null);
    assertThat(PlacementOverlap.between(a, sub("b", "region=eu", List.of(), null), Map.of()))
        .isPresent();
    SubscriptionSpec otherNs =
        new SubscriptionSpec(
            "b",
            "cat",
            "etcd",
            null,
            "elsewhere",
            List.of(),
            a.placement(),
            a.version(),
            "Automatic",
            new JsonObject(),
            null,
            "Keep");
    assertThat(PlacementOverlap.between(a, otherNs, Map.of())).isEmpty();
    assertThat(
            PlacementOverlap.between(
                sub("a", "", List.of(), "red"), sub("b", "", List.of(), "blue"), Map.of()))
        .isEmpty();
    assertThat(
            PlacementOverlap.between(
                sub("a", "", List.of(), "red"), sub("b", "", List.of(), null), Map.of()))
        .isPresent();
    assertThat(
            PlacementOverlap.between(
                sub("a", "olmstead.io/team=blue", List.of(), null),
                sub("b", "", List.of(), "red"),
                Map.of()))
        .as("the team requirement conflicts with the selector")
        .isEmpty();
  }

  @Test
  void namedClustersOverlapWhenBothNameThemOrTheOtherSelectorMatchesThemNow() {
    Map<String, Map<String, String>> labels =
        Map.of("lab-1", Map.of("env", "lab"), "prod-1", Map.of("env", "prod"));
    SubscriptionSpec selector = sub("a", "env=prod", List.of(), null);
    assertThat(
            PlacementOverlap.between(
                sub("b", null, List.of("lab-1"), null),
                sub("c", null, List.of("lab-1"), null),
                labels))
        .hasValueSatisfying(why -> assertThat(why).contains("lab-1"));
    assertThat(PlacementOverlap.between(selector, sub("b", null, List.of("prod-1"), null), labels))
        .hasValueSatisfying(why -> assertThat(why).contains("prod-1"));
    assertThat(PlacementOverlap.between(selector, sub("b", null, List.of("lab-1"), null), labels))
        .isEmpty();
    assertThat(PlacementOverlap.between(sub("a", null, List.of(), null), selector, labels))
        .as("absent selector")
        .isEmpty();
  }
}
