package io.olmstead.agent.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.apispec.protocol.Preflight;
import io.olmstead.apispec.protocol.PreflightFinding;
import io.olmstead.apispec.protocol.SchemaDecoder;
import io.olmstead.olmcore.lifecycle.CrdSchemaFinding;
import io.olmstead.olmcore.lifecycle.Requirements;
import io.olmstead.olmcore.lifecycle.Requirements.RequirementStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PreflightRulesTest {
  @Test
  void anUnmetMinKubeVersionIsKubeVersionTooOldWithOlmsMessage() {
    PreflightFinding finding =
        PreflightRules.requirement(Requirements.minKubeVersion("x.v1", "1.33.0", "v1.31.0"))
            .orElseThrow();
    assertThat(finding.code()).isEqualTo("KubeVersionTooOld");
    assertThat(finding.severity()).isEqualTo(PreflightFinding.ERROR);
    assertThat(finding.message())
        .isEqualTo(
            "CSV version requirement not met: minKubeVersion (1.33.0) > server version "
                + "(1.31.0)");
    assertThat(PreflightRules.requirement(Requirements.minKubeVersion("x.v1", "1.25.0", "v1.31.0")))
        .isEmpty();
  }

  @Test
  void aMissingApiOrCrdIsRequirementNotMet() {
    RequirementStatus missing =
        new RequirementStatus(
            "", "v1", "Pod", "v1.", Requirements.NOT_PRESENT, "Native API does not exist");
    PreflightFinding finding = PreflightRules.requirement(missing).orElseThrow();
    assertThat(finding.code()).isEqualTo("RequirementNotMet");
    assertThat(finding.message()).isEqualTo("Pod v1.: NotPresent (Native API does not exist)");
  }

  @ParameterizedTest(name = "{0} {1} on {2}: removed = {3}")
  @CsvSource({
    "apiextensions.k8s.io/v1beta1, CustomResourceDefinition, v1.22.0, true",
    "apiextensions.k8s.io/v1beta1, CustomResourceDefinition, v1.21.5, false",
    "policy/v1beta1, PodDisruptionBudget, v1.30.1, true",
    "apps/v1, Deployment, v1.30.1, false"
  })
  void apisRemovedFromTheClustersKubernetesAreErrors(
      String apiVersion, String kind, String cluster, boolean removed) {
    var finding = PreflightRules.removedApi(apiVersion, kind, "x", cluster);
    assertThat(finding.isPresent()).isEqualTo(removed);
    finding.ifPresent(f -> assertThat(f.code()).isEqualTo("ApiRemoved"));
  }

  @Test
  void schemaFindingsCountAsTheSubscriptionsSafetySays() {
    CrdSchemaFinding breaking =
        new CrdSchemaFinding(
            "TypeChanged", CrdSchemaFinding.Severity.BREAKING, "v1:.spec", "type changes");
    assertThat(PreflightRules.schemaFinding(breaking, "crd", PreflightRules.CrdUpgradeSafety.NONE))
        .isEmpty();
    assertThat(
            PreflightRules.schemaFinding(breaking, "crd", PreflightRules.CrdUpgradeSafety.WARN)
                .orElseThrow()
                .severity())
        .isEqualTo(PreflightFinding.WARNING);
    assertThat(
            PreflightRules.schemaFinding(breaking, "crd", PreflightRules.CrdUpgradeSafety.STRICT)
                .orElseThrow()
                .severity())
        .isEqualTo(PreflightFinding.ERROR);
    assertThat(PreflightRules.CrdUpgradeSafety.parse(null))
        .isEqualTo(PreflightRules.CrdUpgradeSafety.NONE);
  }

  @Test
  void aLongListIsCutToTheProtocolsBoundWithErrorsFirstAndTheVerdictFromAll() {
    List<PreflightFinding> many = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      many.add(PreflightRules.finding("W" + i, false, "s", "x".repeat(3000)));
    }
    many.add(PreflightRules.finding("Broken", true, "s", "error"));
    Preflight answer = PreflightRules.answer(1, "pf-1", "etcd", "0.9.4", many);
    assertThat(answer.verdict()).isEqualTo(Preflight.FAIL);
    assertThat(answer.findings()).hasSize(Preflight.MAX_FINDINGS);
    assertThat(answer.findings().get(0).code()).isEqualTo("Broken");
    assertThat(answer.findings().get(Preflight.MAX_FINDINGS - 1).code()).isEqualTo("MoreFindings");
    assertThat(SchemaDecoder.violation(answer)).isNull();
  }
}
