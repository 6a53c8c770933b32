package io.olmstead.controlplane.maturity;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * requirements.maturity against stored reports: forbid, maxSeverity, minCapability, unknown rule
 * ids.
 */
class MaturityPolicyTest {

  private static JsonObject finding(String rule, String severity) {
    return new JsonObject()
        .put("rule", rule)
        .put("severity", severity)
        .put("message", rule + " broken");
  }

  private static final JsonObject REPORT =
      new JsonObject()
          .put("bundle", "op.v1")
          .put("evidencedCapability", "Seamless Upgrades")
          .put(
              "findings",
              new JsonArray()
                  .add(finding("security/rbac-wildcard", "error"))
                  .add(finding("robustness/probes", "warning"))
                  .add(finding("robustness/replicas", "info")));

  private static JsonObject req(JsonObject maturity) {
    return new JsonObject().put("maturity", maturity);
  }

  @Test
  void forbiddenRuleIsListedWithTheBundleAndMessage() {
    JsonArray errors =
        MaturityPolicy.violations(
            req(
                new JsonObject()
                    .put(
                        "forbid",
                        new JsonArray().add("security/rbac-wildcard").add("security/privileged"))),
            REPORT);
    assertThat(errors).hasSize(1);
    assertThat(errors.getJsonObject(0).getString("field"))
        .isEqualTo("/requirements/maturity/forbid");
    assertThat(errors.getJsonObject(0).getString("message"))
        .contains("op.v1", "security/rbac-wildcard");
  }

  @Test
  void brokenRulesNamesEachRuleOnceSortedWithMinCapability() {
    assertThat(
            MaturityPolicy.brokenRules(
                req(
                    new JsonObject()
                        .put("maxSeverity", "info")
                        .put("forbid", new JsonArray().add("robustness/probes"))
                        .put("minCapability", "Full Lifecycle")),
                REPORT))
        .containsExactly("robustness/probes", "security/rbac-wildcard", "minCapability");
    assertThat(
            MaturityPolicy.brokenRules(req(new JsonObject().put("maxSeverity", "error")), REPORT))
        .isEmpty();
  }

  @Test
  void maxSeverityRefusesOnlyMoreSevereFindings() {
    assertThat(MaturityPolicy.violations(req(new JsonObject().put("maxSeverity", "error")), REPORT))
        .isEmpty();
    assertThat(
            MaturityPolicy.violations(req(new JsonObject().put("maxSeverity", "warning")), REPORT))
        .hasSize(1);
    assertThat(MaturityPolicy.violations(req(new JsonObject().put("maxSeverity", "info")), REPORT))
        .hasSize(2);
  }

  @Test
  void minCapabilityComparesTheEvidencedLevel() {
    assertThat(
            MaturityPolicy.violations(
                req(new JsonObject().put("minCapability", "Seamless Upgrades")), REPORT))
        .isEmpty();
    assertThat(
            MaturityPolicy.violations(
                req(new JsonObject().put("minCapability", "Full Lifecycle")), REPORT))
        .extracting(o -> ((JsonObject) o).getString("field"))
        .containsExactly("/requirements/maturity/minCapability");
    JsonObject metadataOnly = REPORT.copy().putNull("evidencedCapability");
    assertThat(
            MaturityPolicy.violations(
                req(new JsonObject().put("minCapability", "Basic Install")), metadataOnly))
        .hasSize(1);
  }

  @Test
  void unknownRuleIdsAreNamedByIndex() {
    JsonArray errors =
        MaturityPolicy.unknownRules(
            req(
                new JsonObject()
                    .put(
                        "forbid",
                        new JsonArray().add("security/rbac-wildcard").add("security/nope"))));
    assertThat(errors)
        .extracting(o -> ((JsonObject) o).getString("field"))
        .containsExactly("/requirements/maturity/forbid/1");
    assertThat(MaturityPolicy.present(null)).isFalse();
    assertThat(MaturityPolicy.present(new JsonObject())).isFalse();
  }

  @Test
  void refusalListsAtMostFiftyFindingsAndCountsTheRest() {
    JsonArray many = new JsonArray();
    for (int i = 0; i < 80; i++) {
      many.add(finding("security/rbac-wildcard", "error"));
    }
    JsonArray errors =
        MaturityPolicy.violations(
            req(new JsonObject().put("maxSeverity", "warning")),
            REPORT.copy().put("findings", many));
    assertThat(errors).hasSize(MaturityPolicy.MAX_LISTED + 1);
    assertThat(errors.getJsonObject(MaturityPolicy.MAX_LISTED).getString("message"))
        .startsWith("30 more");
  }
}
