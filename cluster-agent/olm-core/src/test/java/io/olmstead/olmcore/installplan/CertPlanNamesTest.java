package io.olmstead.olmcore.installplan;

import static io.olmstead.olmcore.installplan.WebhookPlanTest.CRD;
import static io.olmstead.olmcore.installplan.WebhookPlanTest.csv;
import static io.olmstead.olmcore.installplan.WebhookPlanTest.validating;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster-scoped and kube-system bindings of a webhook Service are named per install namespace,
 * bounded.
 */
class CertPlanNamesTest {
  private static final String ALL =
      "[{'type':'AllNamespaces','supported':true},{'type':'OwnNamespace','supported':true}]";

  private static List<String> bindingNames(String namespace) {
    InstallPlanResult plan =
        new InstallPlanner()
            .planManifests(
                List.of(
                    csv(ALL, "[" + validating("v.example.com", "hooks.manager", 443) + "]"), CRD),
                namespace,
                "og",
                List.of(namespace),
                SubscriptionConfig.empty());
    return plan.objects().stream()
        .filter(
            o ->
                "ClusterRoleBinding".equals(o.path("kind").asText())
                    || "kube-system".equals(o.path("metadata").path("namespace").asText()))
        .map(o -> o.path("metadata").path("name").asText())
        .filter(n -> n.startsWith("hooks-manager-service"))
        .toList();
  }

  @Test
  void twoInstallsInTwoNamespacesGetTheirOwnAuthDelegatorAndAuthReaderBindings() {
    assertThat(bindingNames("team-a"))
        .containsExactlyInAnyOrder(
            "hooks-manager-service.team-a-system:auth-delegator",
            "hooks-manager-service.team-a-auth-reader");
    assertThat(bindingNames("team-b"))
        .containsExactlyInAnyOrder(
            "hooks-manager-service.team-b-system:auth-delegator",
            "hooks-manager-service.team-b-auth-reader");
  }

  @Test
  void theBindingsSubjectIsTheServiceAccountOfItsOwnNamespace() {
    InstallPlanResult plan =
        new InstallPlanner()
            .planManifests(
                List.of(
                    csv(ALL, "[" + validating("v.example.com", "hooks.manager", 443) + "]"), CRD),
                "team-a",
                "og",
                List.of("team-a"),
                SubscriptionConfig.empty());
    JsonNode binding =
        plan.objects().stream()
            .filter(
                o ->
                    o.path("metadata")
                        .path("name")
                        .asText()
                        .equals("hooks-manager-service.team-a-system:auth-delegator"))
            .findFirst()
            .orElseThrow();

    assertThat(binding.path("subjects").get(0).path("namespace").asText()).isEqualTo("team-a");
  }

  @Test
  void aNameOverTwoHundredFiftyThreeCharactersIsCutAndKeepsAHashOfTheWholeBase() {
    String longService = "s".repeat(240) + "-service";

    String a = CertPlan.authDelegatorBindingName(longService, "team-a");
    String b = CertPlan.authDelegatorBindingName(longService, "team-b");

    assertThat(a).hasSize(253).endsWith("-system:auth-delegator").isNotEqualTo(b);
    assertThat(b).hasSize(253);
    assertThat(CertPlan.authReaderBindingName(longService, "team-a"))
        .hasSize(253)
        .endsWith("-auth-reader");
    assertThat(CertPlan.authDelegatorBindingName("short-service", "team-a"))
        .isEqualTo("short-service.team-a-system:auth-delegator");
  }
}
