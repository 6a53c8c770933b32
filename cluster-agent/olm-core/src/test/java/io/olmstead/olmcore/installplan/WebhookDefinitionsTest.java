package io.olmstead.olmcore.installplan;

import static io.olmstead.olmcore.installplan.WebhookPlanTest.CONVERSION;
import static io.olmstead.olmcore.installplan.WebhookPlanTest.CRD;
import static io.olmstead.olmcore.installplan.WebhookPlanTest.csv;
import static io.olmstead.olmcore.installplan.WebhookPlanTest.json;
import static io.olmstead.olmcore.installplan.WebhookPlanTest.validating;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The webhook checks without planning (strict catalog validation), and the bounds planning puts on
 * definitions.
 */
class WebhookDefinitionsTest {
  private static final String ALL = "[{'type':'AllNamespaces','supported':true}]";
  private final InstallPlanner planner = new InstallPlanner();

  private static String hooks(String... definitions) {
    return "[" + String.join(",", definitions) + "]";
  }

  /** The CSV with a second deployment {@code name} beside {@code hooks.manager}. */
  private static ObjectNode withDeployment(ObjectNode csv, String name) {
    ArrayNode deployments =
        (ArrayNode) csv.path("spec").path("install").path("spec").path("deployments");
    ObjectNode second = deployments.get(0).deepCopy();
    second.put("name", name);
    deployments.add(second);
    return csv;
  }

  private InstallPlanResult plan(ObjectNode csv) {
    return planner.planManifests(
        List.of(csv, CRD), "ops", "og", List.of(""), SubscriptionConfig.empty());
  }

  @Test
  void definitionsPlanningAcceptsHaveNoProblem() {
    ObjectNode csv = csv(ALL, hooks(validating("v.example.com", "hooks.manager", 443), CONVERSION));

    assertThat(WebhookDefinitions.check(List.of(csv, CRD))).isEmpty();
    assertThat(plan(csv).succeeded()).isTrue();
  }

  @Test
  void aWebhookNamingAnAbsentDeploymentIsAProblemNamingItsFieldAndPlanningsReason() {
    ObjectNode csv =
        csv(
            ALL,
            hooks(
                validating("a.example.com", "hooks.manager", 443),
                validating("b.example.com", "hooks.manager", 443),
                validating("c.example.com", "gone", 443)));

    Optional<WebhookDefinitions.Problem> problem = WebhookDefinitions.check(List.of(csv, CRD));

    assertThat(problem).isPresent();
    assertThat(problem.get().field()).isEqualTo("spec.webhookdefinitions[2].deploymentName");
    assertThat(problem.get().reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(problem.get().message()).isEqualTo(plan(csv).message());
  }

  @Test
  void aConversionCrdTheBundleDoesNotShipIsNamedByItsIndex() {
    ObjectNode csv = csv(ALL, hooks(CONVERSION));

    Optional<WebhookDefinitions.Problem> problem = WebhookDefinitions.check(List.of(csv));

    assertThat(problem.map(WebhookDefinitions.Problem::field))
        .contains("spec.webhookdefinitions[0].conversionCRDs[0]");
    assertThat(problem.get().message()).contains("CRD widgets.example.com is not in the bundle");
  }

  @Test
  void moreWebhookDefinitionsThanTheLimitFailPlanningNamingTheLimit() {
    List<String> many = new ArrayList<>();
    for (int i = 0; i <= WebhookDefinitions.MAX_DEFINITIONS; i++) {
      many.add(validating("v" + i + ".example.com", "hooks.manager", 443));
    }
    ObjectNode csv = csv(ALL, hooks(many.toArray(String[]::new)));

    InstallPlanResult plan = plan(csv);

    assertThat(plan.reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(plan.message())
        .isEqualTo("spec.webhookdefinitions has 65 entries, over the limit of 64");
    assertThat(plan.objects()).isEmpty();
    assertThat(WebhookDefinitions.check(List.of(csv, CRD)).map(WebhookDefinitions.Problem::field))
        .contains("spec.webhookdefinitions");
    assertThat(plan(csv(ALL, hooks(many.subList(0, 64).toArray(String[]::new)))).succeeded())
        .isTrue();
  }

  @Test
  void twoDeploymentsWhoseServicesWouldShareANameFailPlanningNamingBoth() {
    ObjectNode csv =
        withDeployment(
            csv(
                ALL,
                hooks(
                    validating("a.example.com", "hooks.manager", 443),
                    validating("b.example.com", "hooks-manager", 443))),
            "hooks-manager");

    InstallPlanResult plan = plan(csv);

    assertThat(plan.reason()).isEqualTo("InvalidInstallStrategy");
    assertThat(plan.message())
        .isEqualTo(
            "spec.webhookdefinitions[1].deploymentName \"hooks-manager\" and "
                + "spec.webhookdefinitions[0].deploymentName \"hooks.manager\" both become Service \"hooks-manager-service\"");
    assertThat(plan.objects()).isEmpty();
  }

  @Test
  void twoWebhooksOfOneDeploymentShareItsServiceWithoutAProblem() {
    ObjectNode csv =
        withDeployment(
            csv(
                ALL,
                hooks(
                    validating("a.example.com", "hooks.manager", 443),
                    validating("b.example.com", "hooks.manager", 443))),
            "hooks-manager");

    assertThat(plan(csv).succeeded()).isTrue();
  }

  @Test
  void aBundleWithoutACsvHasNoWebhookProblem() {
    assertThat(WebhookDefinitions.check(List.of(CRD, json("{'kind':'ConfigMap'}")))).isEmpty();
  }
}
