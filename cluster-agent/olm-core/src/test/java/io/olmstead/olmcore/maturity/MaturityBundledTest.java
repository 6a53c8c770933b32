package io.olmstead.olmcore.maturity;

import static org.assertj.core.api.Assertions.assertThat;

import io.olmstead.olmcore.fbc.Bundle;
import io.olmstead.olmcore.fbc.Catalog;
import io.olmstead.olmcore.fbc.CatalogPackage;
import io.olmstead.olmcore.fbc.CatalogValidator;
import io.olmstead.olmcore.fbc.FbcParser;
import io.olmstead.olmcore.fbc.SharedCatalogs;
import io.olmstead.olmcore.fbc.ValidationMode;
import io.olmstead.olmcore.resolver.RealCatalogs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rules on the real bundles of ../shared/catalogs (skipped when absent). */
class MaturityBundledTest {

  private static final List<String> FIRST_FOUR =
      List.of(
          RbacRules.WILDCARD,
          PodSecurityRules.NON_ROOT,
          WorkloadRules.RESOURCES,
          CrdRules.EXPOSES_RESOURCES);
  private final MaturityAnalyzer analyzer = new MaturityAnalyzer();

  static MaturityReport report(String pkg, String bundle) {
    Catalog c = RealCatalogs.bundled();
    CatalogPackage p = c.pkg(pkg).orElseThrow();
    return new MaturityAnalyzer().analyze(p.bundle(bundle).orElseThrow(), p);
  }

  @ParameterizedTest(name = "{0}/{1}: {2} broken = {3}")
  @CsvSource({
    "etcd, etcdoperator.v0.9.4, security/rbac-wildcard, true",
    "etcd, etcdoperator.v0.9.4, security/run-as-non-root, true",
    "etcd, etcdoperator.v0.9.4, robustness/container-resources, true",
    "etcd, etcdoperator.v0.9.4, consumability/crd-exposes-resources, true",
    "etcd, etcdoperator.v0.9.4, portability/removed-api, false",
    "rabbitmq-cluster-operator, rabbitmq-cluster-operator.v2.22.3, security/rbac-wildcard, false",
    "rabbitmq-cluster-operator, rabbitmq-cluster-operator.v2.22.3, security/run-as-non-root, false",
    "rabbitmq-cluster-operator, rabbitmq-cluster-operator.v2.22.3, robustness/container-resources, false",
    "rabbitmq-cluster-operator, rabbitmq-cluster-operator.v2.22.3, consumability/crd-exposes-resources, false",
    "rabbitmq-cluster-operator, rabbitmq-cluster-operator.v2.22.3, security/capabilities, false",
    "rabbitmq-cluster-operator, rabbitmq-cluster-operator.v2.22.3, robustness/probes, false",
    "rabbitmq-messaging-topology-operator, rabbitmq-messaging-topology-operator.v1.17.4, security/run-as-non-root, true",
    "rabbitmq-messaging-topology-operator, rabbitmq-messaging-topology-operator.v1.18.1, security/run-as-non-root, false",
    // 1.18.1 drops "All", not "ALL": pod-security-admission compares exactly, so the restricted
    // check still fails
    "rabbitmq-messaging-topology-operator, rabbitmq-messaging-topology-operator.v1.18.1, security/capabilities, true",
    "rabbitmq-messaging-topology-operator, rabbitmq-messaging-topology-operator.v1.18.1, robustness/probes, true",
  })
  void realBundlesBreakTheRulesTheirManifestsBreak(
      String pkg, String bundle, String rule, boolean broken) {
    assertThat(report(pkg, bundle).breaks(rule))
        .as(pkg + "/" + bundle + " " + rule)
        .isEqualTo(broken);
  }

  @Test
  void etcdFindingsNameTheObjectAndField() {
    MaturityReport r = report("etcd", "etcdoperator.v0.9.4");
    assertThat(r.findings())
        .filteredOn(f -> f.rule().equals(WorkloadRules.RESOURCES))
        .extracting(Finding::object, Finding::field)
        .contains(
            org.assertj.core.groups.Tuple.tuple(
                "Deployment etcd-operator",
                "spec.template.spec.containers[etcd-backup-operator].resources"));
    assertThat(r.findings())
        .filteredOn(f -> f.rule().equals(CrdRules.EXPOSES_RESOURCES))
        .extracting(Finding::object)
        .containsExactly("CustomResourceDefinition etcdclusters.etcd.database.coreos.com");
    assertThat(r.scores().get(Category.SECURITY)).isZero();
    assertThat(r.declaredCapability()).isEqualTo("Full Lifecycle");
    assertThat(r.evidencedCapability()).isEqualTo("Seamless Upgrades");
    assertThat(r.breaks(CapabilityRules.EVIDENCE)).isTrue();
  }

  @Test
  void topologyUpgradeResolvesRunAsNonRoot() {
    MaturityDiff d =
        MaturityDiff.of(
            report(
                "rabbitmq-messaging-topology-operator",
                "rabbitmq-messaging-topology-operator.v1.17.4"),
            report(
                "rabbitmq-messaging-topology-operator",
                "rabbitmq-messaging-topology-operator.v1.18.1"));
    assertThat(d.resolved())
        .extracting(Finding::rule)
        .contains(PodSecurityRules.NON_ROOT, PodSecurityRules.SECCOMP, PodSecurityRules.ESCALATION);
    assertThat(d.introduced()).extracting(Finding::rule).doesNotContain(PodSecurityRules.NON_ROOT);
  }

  @Test
  void everyBundledBundleGetsAReportWithoutMalformedObjects() {
    Catalog c = RealCatalogs.bundled();
    int n = 0;
    for (CatalogPackage p : c.packages()) {
      for (Bundle b : p.bundles()) {
        MaturityReport r = analyzer.analyze(b, p);
        assertThat(r.findings())
            .as(b.name())
            .noneMatch(f -> f.rule().equals("lifecycle/malformed-object"));
        assertThat(r.evidencedCapability()).as(b.name()).isNotNull();
        assertThat(r.findings()).allSatisfy(f -> assertThat(f.message()).isNotBlank());
        n++;
      }
    }
    assertThat(n).isEqualTo(29);
  }

  @Test
  void metadataOnlyCatalogGetsMetadataRulesAndSaysWhatItCouldNotCheck() throws Exception {
    var dir = SharedCatalogs.require("community-v4.20");
    Catalog c =
        CatalogValidator.validate(new FbcParser().parseDirectory(dir), ValidationMode.LENIENT)
            .catalog()
            .orElseThrow();
    int n = 0;
    for (CatalogPackage p : c.packages()) {
      for (Bundle b : p.bundles()) {
        MaturityReport r = analyzer.analyze(b, p);
        assertThat(r.notChecked())
            .as(b.name())
            .anyMatch(s -> s.contains(PodSecurityRules.NON_ROOT) && s.contains("metadata only"));
        assertThat(r.findings())
            .as(b.name())
            .allMatch(
                f ->
                    f.rule().startsWith("consumability/") || f.rule().equals(MetadataRules.DIGEST));
        assertThat(r.evidencedCapability()).isNull();
        n++;
      }
    }
    assertThat(n).isGreaterThan(30);
  }
}
