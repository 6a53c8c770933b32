package io.olmstead.controlplane.rollout;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.controlplane.preflight.PreflightStore.Verdict;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MaturityChecksTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static JsonObject report() {
    return new JsonObject()
        .put("bundle", "op.v2")
        .put("evidencedCapability", "Basic Install")
        .put(
            "findings",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("rule", "security/rbac-wildcard")
                        .put("severity", "error")
                        .put("object", "ClusterServiceVersion op.v2")
                        .put("message", "'*' in verbs"))
                .add(
                    new JsonObject()
                        .put("rule", "portability/removed-api")
                        .put("severity", "error")
                        .put("object", "CustomResourceDefinition things.example.com")
                        .put("removedIn", "1.22")
                        .put(
                            "message",
                            "CustomResourceDefinition things.example.com uses apiextensions.k8s.io/v1beta1, "
                                + "removed in Kubernetes 1.22")));
  }

  private static JsonObject forbid(String rule) {
    return new JsonObject()
        .put("maturity", new JsonObject().put("forbid", new JsonArray().add(rule)));
  }

  @Test
  void aForbiddenRuleTheTargetBreaksIsAFindingOnEveryCluster() {
    Map<String, JsonArray> out =
        MaturityChecks.perCluster(
            forbid("security/rbac-wildcard"), report(), Map.of(), List.of("a", "b"));
    assertThat(out).containsOnlyKeys("a", "b");
    JsonObject f = out.get("a").getJsonObject(0);
    assertThat(f.getString("code")).isEqualTo(MaturityChecks.REQUIREMENT);
    assertThat(f.getString("severity")).isEqualTo("Error");
    assertThat(f.getString("message")).contains("security/rbac-wildcard").contains("op.v2");
  }

  @Test
  void noRequirementsAndNoRemovedApiForTheClusterVersionGiveNoFinding() {
    Map<String, String> kube = Map.of("old", "v1.21.14", "unknown", "garbage");
    assertThat(MaturityChecks.perCluster(null, report(), kube, List.of("old", "unknown", "silent")))
        .isEmpty();
  }

  @Test
  void aRemovedApiIsAFindingOnlyOnClustersAtOrAboveTheVersionThatRemovedIt() {
    Map<String, String> kube =
        new HashMap<>(Map.of("k122", "v1.22.0", "k129", "1.29.3+k3s1", "k121", "v1.21.9"));
    Map<String, JsonArray> out =
        MaturityChecks.perCluster(
            new JsonObject(), report(), kube, List.of("k122", "k129", "k121"));
    assertThat(out).containsOnlyKeys("k122", "k129");
    JsonObject f = out.get("k129").getJsonObject(0);
    assertThat(f.getString("code")).isEqualTo(MaturityChecks.REMOVED_API);
    assertThat(f.getString("message"))
        .contains("apiextensions.k8s.io/v1beta1")
        .contains("1.22")
        .contains("1.29.3+k3s1");
  }

  @Test
  void controlPlaneFindingsHoldInBlockEvenWhenTheAgentPassesAndWarnInWarn() {
    Map<String, Verdict> pass = Map.of("a", new Verdict(T0, T0, "Pass", new JsonArray()));
    Map<String, JsonArray> checks =
        MaturityChecks.perCluster(
            forbid("security/rbac-wildcard"), report(), Map.of(), List.of("a"));
    PreflightView block =
        new PreflightView(new PreflightPolicy(PreflightPolicy.Mode.Block, 30), pass, checks);
    PreflightView.Decision held = block.decide("a", true, null, T0);
    assertThat(held.kind()).isEqualTo(PreflightView.Kind.HOLD);
    assertThat(held.note()).startsWith("PreflightFailed: MaturityRequirement");
    PreflightView warn =
        new PreflightView(new PreflightPolicy(PreflightPolicy.Mode.Warn, 30), pass, checks);
    PreflightView.Decision warned = warn.decide("a", true, null, T0);
    assertThat(warned.kind()).isEqualTo(PreflightView.Kind.APPROVE);
    assertThat(warned.note()).contains("preflight failed (Warn mode): MaturityRequirement");
    JsonObject preview = block.preview("a", true, T0);
    assertThat(preview.getString("verdict")).isEqualTo("Fail");
    assertThat(preview.getJsonArray("findings").getJsonObject(0).getString("code"))
        .isEqualTo(MaturityChecks.REQUIREMENT);
  }
}
