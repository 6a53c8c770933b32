package io.olmstead.controlplane.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.subscription.SubscriptionSpec.Placement;
import io.olmstead.controlplane.subscription.SubscriptionSpec.VersionPolicy;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorGroupTest {
  private static final List<String> ALL_ONLY = List.of("AllNamespaces");
  private static final List<String> NOT_ALL =
      List.of("OwnNamespace", "SingleNamespace", "MultiNamespace");

  private static SubscriptionSpec spec(String mode, List<String> targets) {
    return new SubscriptionSpec(
        "s",
        "community",
        "dns",
        null,
        "ops",
        targets,
        new Placement("", List.of()),
        VersionPolicy.followChannel(),
        SubscriptionSpec.AUTOMATIC,
        new JsonObject(),
        null,
        null,
        null,
        null,
        mode);
  }

  private static SubscriptionSpec request(JsonObject body) {
    return SubscriptionJson.spec("s", body.put("namespace", "ops"));
  }

  @Test
  void eachModeSendsTheAgentTheTargetsOlmGivesIt() {
    assertThat(OperatorGroup.wireTargets(spec("AllNamespaces", List.of()))).containsExactly("");
    assertThat(OperatorGroup.wireTargets(spec("OwnNamespace", List.of()))).containsExactly("ops");
    assertThat(OperatorGroup.wireTargets(spec("MultiNamespace", List.of("a", "b"))))
        .containsExactly("a", "b");
    assertThat(OperatorGroup.wireTargets(spec(null, List.of()))).isEmpty();
  }

  @Test
  void targetsWithoutAModeKeepTheMeaningTheyHad() {
    SubscriptionSpec own = request(new JsonObject().put("targetNamespaces", List.of("ops")));
    SubscriptionSpec single = request(new JsonObject().put("targetNamespaces", List.of("team-a")));
    SubscriptionSpec multi =
        request(new JsonObject().put("targetNamespaces", List.of("team-a", "team-b")));

    assertThat(own.installMode()).isEqualTo("OwnNamespace");
    assertThat(OperatorGroup.problems(own)).isEmpty();
    assertThat(OperatorGroup.wireTargets(own)).containsExactly("ops");
    assertThat(single.installMode()).isEqualTo("SingleNamespace");
    assertThat(multi.installMode()).isEqualTo("MultiNamespace");
    assertThat(request(new JsonObject()).installMode()).isNull();
  }

  @Test
  void modesAndTargetsThatDoNotFitAreProblemsNamingTheField() {
    assertThat(OperatorGroup.problems(spec("AllNamespaces", List.of("a")))).hasSize(1);
    assertThat(OperatorGroup.problems(spec("SingleNamespace", List.of()))).hasSize(1);
    assertThat(OperatorGroup.problems(spec("SingleNamespace", List.of("ops")))).hasSize(1);
    assertThat(
            OperatorGroup.problems(spec("MultiNamespace", List.of()))
                .getJsonObject(0)
                .getString("field"))
        .isEqualTo("/targetNamespaces");
    assertThat(OperatorGroup.problems(spec("SingleNamespace", List.of("a")))).isEmpty();
    assertThat(OperatorGroup.problems(spec(null, List.of()))).isEmpty();
  }

  @Test
  void withoutAModeTheBundleDecidesAllNamespacesWhereSupportedElseOwnNamespace() {
    assertThat(OperatorGroup.key(spec(null, List.of()), ALL_ONLY)).contains(List.of(""));
    assertThat(OperatorGroup.key(spec(null, List.of()), NOT_ALL)).contains(List.of("ops"));
    assertThat(OperatorGroup.key(spec(null, List.of()), null)).isEmpty();
    assertThat(OperatorGroup.key(spec("MultiNamespace", List.of("b", "a")), null))
        .contains(List.of("a", "b"));
  }

  @Test
  void aModeTheCatalogSaysTheBundleLacksIsNamedUnknownModesPass() {
    assertThat(OperatorGroup.unsupported(spec("OwnNamespace", List.of()), ALL_ONLY, "dns.v1"))
        .hasValueSatisfying(
            m ->
                assertThat(m)
                    .contains("dns.v1")
                    .contains("OwnNamespace")
                    .contains("AllNamespaces"));
    assertThat(OperatorGroup.unsupported(spec("AllNamespaces", List.of()), NOT_ALL, "x"))
        .isPresent();
    assertThat(OperatorGroup.unsupported(spec(null, List.of()), ALL_ONLY, "dns.v1")).isEmpty();
    assertThat(OperatorGroup.unsupported(spec("OwnNamespace", List.of()), null, "dns.v1"))
        .isEmpty();
    // OLM reads the targets: MultiNamespace with one other namespace is SingleNamespace
    assertThat(
            OperatorGroup.unsupported(
                spec("MultiNamespace", List.of("a")), List.of("MultiNamespace"), "x"))
        .hasValueSatisfying(m -> assertThat(m).contains("SingleNamespace"));
  }
}
