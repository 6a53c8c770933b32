package io.olmstead.olmcore.maturity;

import static io.olmstead.olmcore.maturity.Manifests.analyze;
import static io.olmstead.olmcore.maturity.Manifests.goodCrd;
import static io.olmstead.olmcore.maturity.Manifests.goodCsv;
import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.RelatedImage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each rule on hand-made manifests: the good bundle breaks nothing, one edit breaks exactly the
 * rule it targets.
 */
class MaturityRulesTest {

  @Test
  void compliantBundleHasNoFindingsAndFullScores() {
    MaturityReport r = analyze(goodCsv(), goodCrd());
    assertThat(r.findings()).isEmpty();
    assertThat(r.scores()).allSatisfy((c, s) -> assertThat(s).isEqualTo(100));
    assertThat(r.evidencedCapability()).isEqualTo("Full Lifecycle");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "security/rbac-wildcard | verbs: [get, list, watch, update] | verbs: [\"*\"]",
        "security/rbac-wildcard | apiGroups: [demo.io] | apiGroups: [\"*\"]",
        "security/rbac-escalate-bind-impersonate | verbs: [get, list, watch, update] | verbs: [get, bind]",
        "security/cluster-wide-secrets | {apiGroups: [demo.io], resources: [widgets] | {apiGroups: [\"\"], resources: [secrets]",
        "security/rbac-creates-crds | {apiGroups: [demo.io], resources: [widgets] | {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions]",
        "security/run-as-non-root | runAsNonRoot: true, | runAsNonRoot: false,",
        "security/allow-privilege-escalation | allowPrivilegeEscalation: false | allowPrivilegeEscalation: true",
        "security/capabilities | drop: [ALL] | drop: [All]",
        "security/seccomp-profile | seccompProfile: {type: RuntimeDefault} | seccompProfile: {type: Unconfined}",
        "security/privileged | allowPrivilegeEscalation: false | allowPrivilegeEscalation: false\\n                  privileged: true",
        "security/host-namespaces | securityContext: {runAsNonRoot: true, | hostPID: true\\n              securityContext: {runAsNonRoot: true,",
        "security/read-only-root-filesystem | readOnlyRootFilesystem: true | readOnlyRootFilesystem: false",
        "robustness/container-resources | limits: {cpu: 100m, memory: 128Mi} | limits: {memory: 128Mi}",
        "robustness/probes | livenessProbe: | startupProbe:",
        "robustness/replicas | replicas: 2 | replicas: 1",
        "consumability/capabilities | capabilities: Full Lifecycle | capabilities: Fully Automatic",
        "consumability/categories | categories: Database | categories: Databases",
        "consumability/operatorhub-metadata | description: A demo operator | description: \"\"",
        "consumability/install-modes | {type: OwnNamespace, supported: true}, {type: AllNamespaces, supported: true} | {type: OwnNamespace, supported: false}",
        "portability/min-kube-version | minKubeVersion: 1.25.0 | keywords: [x]",
        "lifecycle/capability-evidence | readinessProbe: {httpGet: {path: /readyz, port: 8081}} | x: 1",
      })
  void oneEditToTheCsvBreaksItsRule(String rule, String from, String to) {
    String csv = goodCsv();
    assertThat(csv).contains(from);
    MaturityReport r = analyze(csv.replace(from, to.replace("\\n", "\n")), goodCrd());
    assertThat(r.breaks(rule)).as(r.findings().toString()).isTrue();
    assertThat(r.findings())
        .allSatisfy(
            f -> {
              assertThat(f.object()).isNotBlank();
              assertThat(f.message()).isNotBlank();
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "consumability/crd-exposes-resources | resources: {type: object, x-kubernetes-preserve-unknown-fields: true} | limits: {type: object}",
        "consumability/crd-exposes-placement | serviceAccountName: {type: string} | saName: {type: string}",
        "robustness/crd-status-subresource | subresources: {status: {}} | subresources: {scale: {specReplicasPath: .spec.size, statusReplicasPath: .status.size}}",
        "consumability/crd-annotations | resource/usage: widget-usage.usage | other: x",
        "consumability/crd-annotation-malformed | resource/composition: StatefulSet, Service | resource/composition: \"statefulset;service\"",
        "consumability/crd-annotation-malformed | on:Pod, key:demo.io/widget | Pod demo.io/widget",
        "portability/removed-api | apiVersion: apiextensions.k8s.io/v1 | apiVersion: apiextensions.k8s.io/v1beta1",
      })
  void oneEditToTheCrdBreaksItsRule(String rule, String from, String to) {
    String crd = goodCrd();
    assertThat(crd).contains(from);
    assertThat(analyze(goodCsv(), crd.replace(from, to)).breaks(rule)).isTrue();
  }

  @Test
  void namespacedClusterPermissionsWithoutAllNamespacesAreTooWide() {
    String csv =
        goodCsv()
            .replace(
                "{type: AllNamespaces, supported: true}",
                "{type: AllNamespaces, supported: false}");
    assertThat(analyze(csv, goodCrd()).breaks(RbacRules.WIDER_THAN_INSTALL_MODES)).isFalse();
    csv = csv.replace("resources: [widgets]", "resources: [widgets, pods]");
    assertThat(analyze(csv, goodCrd()).breaks(RbacRules.WIDER_THAN_INSTALL_MODES)).isTrue();
  }

  @Test
  void crdWithOpenSpecIsNotValidated() {
    String crd =
        goodCrd()
            .replaceAll(
                "(?s)          spec:\\n.*",
                "          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}\n");
    MaturityReport r = analyze(goodCsv(), crd);
    assertThat(r.breaks(CrdRules.VALIDATION)).isTrue();
    assertThat(r.breaks(CrdRules.EXPOSES_RESOURCES)).isTrue();
  }

  @Test
  void crdWhoseInstancesCreateNoWorkloadsNeedNotExposeResources() {
    String csv =
        goodCsv()
            .replace(
                "resources: [{kind: StatefulSet, version: v1}]",
                "resources: [{kind: ConfigMap, version: v1}]");
    String crd =
        goodCrd()
            .replace(
                "resource/composition: StatefulSet, Service", "resource/composition: ConfigMap")
            .replace("resources: {type: object", "limits: {type: object");
    assertThat(analyze(csv, crd).breaks(CrdRules.EXPOSES_RESOURCES)).isFalse();
  }

  @Test
  void removedApiNamesTheKubernetesVersion() {
    String pdb =
        "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: demo}\nspec: {minAvailable: 1}\n";
    String flow =
        "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: demo}\n";
    MaturityReport r = analyze(goodCsv(), goodCrd(), pdb, flow);
    assertThat(r.findings())
        .filteredOn(f -> f.rule().equals(RemovedApiRules.REMOVED))
        .extracting(Finding::object, Finding::removedIn)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("PodDisruptionBudget demo", "1.25"),
            org.assertj.core.groups.Tuple.tuple("FlowSchema demo", "1.32"));
  }

  @Test
  void rbacOnPodSecurityPoliciesIsARemovedApi() {
    String csv = goodCsv().replace("resources: [configmaps]", "resources: [podsecuritypolicies]");
    assertThat(analyze(csv, goodCrd()).findings())
        .anyMatch(f -> f.rule().equals(RemovedApiRules.REMOVED) && "1.25".equals(f.removedIn()));
  }

  @Test
  void unpinnedOrUnlistedImagesAreReported() {
    var objects = java.util.List.of(Manifests.yaml(goodCsv()), Manifests.yaml(goodCrd()));
    var images = java.util.List.of(new RelatedImage("other", "quay.io/demo/other:v1"));
    MaturityReport r =
        new MaturityAnalyzer().analyze(BundleView.of("demo", objects, null, images, true, null));
    assertThat(r.breaks(MetadataRules.DIGEST)).isTrue();
    assertThat(r.breaks(ImageRules.COMPLETE)).isTrue();
  }

  @Test
  void archLabelsMustAgreeWithNodeAffinity() {
    String csv =
        goodCsv()
            .replace(
                "  annotations:\n",
                "  labels: {operatorframework.io/arch.arm64: supported}\n  annotations:\n")
            .replace(
                "securityContext: {runAsNonRoot: true,",
                "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "
                    + "{nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]}]}}}\n"
                    + "              securityContext: {runAsNonRoot: true,");
    assertThat(analyze(csv, goodCrd()).breaks(ImageRules.MULTI_ARCH)).isTrue();
  }

  @Test
  void seamlessUpgradesWithoutAnUpgradeEdgeIsNotEvidenced() {
    var objects = java.util.List.of(Manifests.yaml(goodCsv()), Manifests.yaml(goodCrd()));
    MaturityReport r =
        new MaturityAnalyzer().analyze(BundleView.of("demo", objects, null, null, false, null));
    assertThat(r.breaks(CapabilityRules.EVIDENCE)).isTrue();
    assertThat(r.evidencedCapability()).isEqualTo("Basic Install");
  }

  @Test
  void diffListsIntroducedAndResolvedFindingsAcrossCsvRenames() {
    MaturityReport from =
        analyze(goodCsv().replace("verbs: [get, list, watch, update]", "verbs: ['*']"), goodCrd());
    MaturityReport to =
        analyze(
            goodCsv().replace("demo.v1.0.0", "demo.v1.1.0").replace("replicas: 2", "replicas: 1"),
            goodCrd());
    MaturityDiff d = MaturityDiff.of(from, to);
    assertThat(d.resolved()).extracting(Finding::rule).containsExactly(RbacRules.WILDCARD);
    assertThat(d.introduced()).extracting(Finding::rule).containsExactly(WorkloadRules.REPLICAS);
  }
}
