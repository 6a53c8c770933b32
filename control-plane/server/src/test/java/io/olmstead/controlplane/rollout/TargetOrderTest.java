package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.olmstead.controlplane.rollout.TargetOrder.Facts;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The order of a multi-target rollout's targets, as a table: request order in, dependency order
 * out.
 */
class TargetOrderTest {
  // db provides the package db and the GVK db.io/v1/Database; app requires the package db; ui
  // requires app's GVK
  private static final Facts DB = facts("db", Set.of("db.io/v1/Database"), Set.of(), Set.of());
  private static final Facts APP = facts("app", Set.of("app.io/v1/App"), Set.of("db"), Set.of());
  private static final Facts UI = facts("ui", Set.of(), Set.of(), Set.of("app.io/v1/App"));
  private static final Facts CACHE =
      facts("cache", Set.of("cache.io/v1/Cache"), Set.of(), Set.of());
  private static final Facts BY_GVK =
      facts("report", Set.of(), Set.of(), Set.of("db.io/v1/Database"));
  private static final Facts UNRELATED_REQ =
      facts("lonely", Set.of(), Set.of("not-in-the-rollout"), Set.of("x.io/v1/Missing"));

  static Stream<Arguments> orders() {
    return Stream.of(
        Arguments.of("one target", List.of(DB), List.of("db")),
        Arguments.of(
            "independent targets keep the request order",
            List.of(CACHE, DB),
            List.of("cache", "db")),
        Arguments.of(
            "a package requirement puts the provider first",
            List.of(APP, DB),
            List.of("db", "app")),
        Arguments.of(
            "a GVK requirement puts the provider first",
            List.of(BY_GVK, DB),
            List.of("db", "report")),
        Arguments.of(
            "a chain in reverse comes out in order",
            List.of(UI, APP, DB),
            List.of("db", "app", "ui")),
        Arguments.of(
            "ties keep the request order around a dependency",
            List.of(CACHE, APP, DB),
            List.of("cache", "db", "app")),
        Arguments.of(
            "a free target listed first stays first",
            List.of(UI, CACHE, APP, DB),
            List.of("cache", "db", "app", "ui")),
        Arguments.of(
            "requirements outside the rollout do not order",
            List.of(UNRELATED_REQ, DB),
            List.of("lonely", "db")),
        Arguments.of("already ordered stays", List.of(DB, APP, UI), List.of("db", "app", "ui")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("orders")
  void ordersProvidersBeforeTheirConsumers(String name, List<Facts> request, List<String> expected)
      throws Exception {
    assertThat(TargetOrder.order(request).stream().map(i -> request.get(i).subscription()).toList())
        .isEqualTo(expected);
  }

  static Stream<Arguments> cycles() {
    Facts a = facts("a", Set.of("a.io/v1/A"), Set.of("b"), Set.of());
    Facts b = facts("b", Set.of(), Set.of(), Set.of("a.io/v1/A"));
    Facts self = facts("self", Set.of("s.io/v1/S"), Set.of("self"), Set.of("s.io/v1/S"));
    Facts c = facts("c", Set.of(), Set.of("a"), Set.of());
    return Stream.of(
        Arguments.of("two targets requiring each other", List.of(a, b), List.of(0, 1), "a, b"),
        Arguments.of(
            "the cycle is named, not the free targets around it",
            List.of(DB, c, a, b),
            List.of(2, 3),
            "a, b"),
        Arguments.of(
            "a bundle requiring itself does not make a cycle alone",
            List.of(self, DB),
            null,
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cycles")
  void refusesACycleNamingItsTargets(
      String name, List<Facts> request, List<Integer> cycle, String named) throws Exception {
    if (cycle == null) {
      assertThat(TargetOrder.order(request)).hasSize(request.size());
      return;
    }
    assertThatThrownBy(() -> TargetOrder.order(request))
        .isInstanceOfSatisfying(
            TargetOrder.CycleException.class,
            e -> {
              assertThat(e.targets()).isEqualTo(cycle);
              assertThat(e.getMessage()).contains("targets " + named + " require one another");
            });
  }

  private static Facts facts(
      String pkg, Set<String> provides, Set<String> requiresPackages, Set<String> requiresGvks) {
    return new Facts(pkg, pkg, provides, requiresPackages, requiresGvks);
  }
}
